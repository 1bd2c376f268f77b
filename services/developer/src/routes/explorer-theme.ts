import { readFileSync } from 'node:fs';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

const asset = (name: string) => readFileSync(new URL(`./explorer-assets/${name}`, import.meta.url));

/**
 * Earshot's name, mark and colours on Swagger UI, every file served by this
 * instance (the logo goes inline as a data: URI), so the explorer works
 * offline and shows no other product's logo.
 */
export function explorerTheme(): Pick<FastifySwaggerUiOptions, 'theme' | 'logo'> {
  const mark = asset('earshot-mark.svg');
  return {
    logo: { type: 'image/svg+xml', content: asset('earshot-logo.svg') },
    theme: {
      title: 'Earshot API explorer',
      favicon: [{ filename: 'earshot.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: mark }],
      css: [{ filename: 'earshot.css', content: asset('explorer.css').toString('utf8') }],
      js: [{ filename: 'earshot.js', content: asset('explorer.js').toString('utf8') }],
    },
  };
}
