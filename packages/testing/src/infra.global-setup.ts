import type { TestProject } from 'vitest/node';
import { infraDown, infraUp } from './local-infra/infra';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    databaseUrl: string;
  }
}

/** Brings the real Kafka broker and PostgreSQL server up once per test run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const infra = await infraUp((line) => console.log(`[infra] ${line}`), { lean: true });
  console.log(`[infra] Kafka at ${infra.kafkaBrokers}, PostgreSQL at ${redact(infra.databaseUrl)}`);
  project.provide('kafkaBrokers', infra.kafkaBrokers);
  project.provide('databaseUrl', infra.databaseUrl);
  return async () => {
    // Only what this run started is stopped; a developer's `npm run infra:up` stays up.
    await infraDown(infra.started);
  };
}

function redact(url: string): string {
  return url.replace(/:[^:@/]+@/, ':***@');
}
