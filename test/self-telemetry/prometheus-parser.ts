import { execFileSync } from 'node:child_process';
import { pythonTools } from '@earshot/testing';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  samples: Sample[];
}

const PARSE = `
import json, sys
from prometheus_client.parser import text_string_to_metric_families
families = [
    {"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
    for f in text_string_to_metric_families(sys.stdin.read())
]
json.dump(families, sys.stdout)
`;

/** An exposition read by Prometheus's own Python client parser, which raises on anything the text format does not allow. */
export function parseExposition(text: string): Family[] {
  const bin = pythonTools('prometheus-parser', ['prometheus-client==0.26.0']);
  return JSON.parse(execFileSync(`${bin}/python`, ['-c', PARSE], { input: text, encoding: 'utf8' })) as Family[];
}

/** The sum of a family's samples named `sample` whose labels include `labels`. */
export function total(families: readonly Family[], sample: string, labels: Record<string, string> = {}): number {
  return families
    .flatMap((family) => family.samples)
    .filter((s) => s.name === sample && Object.entries(labels).every(([name, value]) => s.labels[name] === value))
    .reduce((sum, s) => sum + s.value, 0);
}
