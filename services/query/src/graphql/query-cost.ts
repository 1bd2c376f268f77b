import { GraphQLError, Kind, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';
import { MAX_PAGE_LIMIT } from '@earshot/contracts';

/**
 * The cost of a query: one per field, times the items its page may hold. A
 * field with a `limit` argument multiplies what it selects by that limit
 * (by the largest page when the limit is a variable or left out), so a query
 * asking for many fields of many items is refused before it runs.
 */
function queryCost(selectionSet: SelectionSetNode, context: ValidationContext, multiplier = 1): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      total += multiplier;
      if (!selection.selectionSet) continue;
      const limit = selection.arguments?.find((argument) => argument.name.value === 'limit');
      const pages = limit === undefined && !isPaged(selection.name.value) ? 1 : limit?.value.kind === Kind.INT ? Number(limit.value.value) : MAX_PAGE_LIMIT;
      total += queryCost(selection.selectionSet, context, multiplier * Math.max(1, pages));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      total += queryCost(selection.selectionSet, context, multiplier);
    } else {
      const fragment = context.getFragment(selection.name.value);
      if (fragment) total += queryCost(fragment.selectionSet, context, multiplier);
    }
  }
  return total;
}

const PAGED = new Set(['calls', 'outcomes', 'incidents', 'alerts']);
const isPaged = (field: string) => PAGED.has(field);

/** A validation rule refusing any operation that costs more than `maxCost`. */
export function costLimit(maxCost: number): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(node) {
      const cost = queryCost(node.selectionSet, context);
      if (cost > maxCost)
        context.reportError(
          new GraphQLError(`the query costs ${cost}, more than the ${maxCost} allowed: ask for fewer fields or a smaller limit`, { nodes: [node] }),
        );
    },
  });
}
