import { GraphQLError, Kind, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

interface Depths {
  /** The deepest path through the API's own fields. */
  fields: number;
  /** The deepest path into `__schema` or `__type`. */
  introspection: number;
}

const INTROSPECTION = new Set(['__schema', '__type']);

function depthsOf(selectionSet: SelectionSetNode, context: ValidationContext, visiting: ReadonlySet<string>): Depths {
  const depths: Depths = { fields: 0, introspection: 0 };
  const take = (inner: Depths, step: number) => {
    depths.fields = Math.max(depths.fields, inner.fields + step);
    depths.introspection = Math.max(depths.introspection, inner.introspection > 0 ? inner.introspection + step : 0);
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet ? depthsOf(selection.selectionSet, context, visiting) : { fields: 0, introspection: 0 };
      if (INTROSPECTION.has(selection.name.value)) depths.introspection = Math.max(depths.introspection, 1 + Math.max(inner.fields, inner.introspection));
      else take(inner, 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      take(depthsOf(selection.selectionSet, context, visiting), 0);
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      // A cycle of fragments is refused by graphql-js's own rule; here it only must not recurse forever.
      if (fragment && !visiting.has(name)) take(depthsOf(fragment.selectionSet, context, new Set([...visiting, name])), 0);
    }
  }
  return depths;
}

/**
 * A validation rule bounding how deep an operation reaches. Introspection
 * has a limit of its own: the standard introspection query every client
 * and IDE sends nests `ofType` far deeper than any API field does, and the
 * schema it walks is small and fixed (the cost rule bounds it too).
 */
export function depthLimit(maxDepth: number, maxIntrospectionDepth: number): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(node) {
      const { fields, introspection } = depthsOf(node.selectionSet, context, new Set());
      if (fields > maxDepth) context.reportError(new GraphQLError(`the query has depth ${fields}, more than the ${maxDepth} allowed`, { nodes: [node] }));
      if (introspection > maxIntrospectionDepth)
        context.reportError(
          new GraphQLError(`the introspection query has depth ${introspection}, more than the ${maxIntrospectionDepth} allowed`, { nodes: [node] }),
        );
    },
  });
}
