import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fetchDescription, GENERATED_PATH, generateTypes } from '../../scripts/generate-types.js';
import { env } from './target.js';

describe('the generated models', () => {
  it('[models-regenerate] regenerating src/generated/openapi.ts from the served /openapi.json changes nothing', async () => {
    const regenerated = await generateTypes(await fetchDescription(env.baseUrl));
    expect(regenerated === readFileSync(GENERATED_PATH, 'utf8'), 'src/generated/openapi.ts is stale: run `npm run generate` in sdk/typescript').toBe(true);
  });
});
