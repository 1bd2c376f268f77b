import { parseArgs } from 'node:util';
import { WebhookSecretRotatedSchema } from '@earshot/contracts';
import type { CommandRunner } from '../command-runner';
import { tenantApi } from '../tenant-api';
import { duration } from './keys';

/** `earshot secret rotate [--overlap 24h]`: a new webhook secret; the previous one still verifies for the overlap. */
export const secretCommand: CommandRunner = {
  async run(args) {
    const [action, ...rest] = args;
    if (action !== 'rotate') throw new Error(`unknown action "${action ?? ''}"; usage: earshot secret rotate [--overlap 24h] [--json] [--url U] [--key K]`);
    const { values } = parseArgs({
      args: rest,
      options: { overlap: { type: 'string', default: '24h' }, json: { type: 'boolean', default: false }, url: { type: 'string' }, key: { type: 'string' } },
      strict: true,
    });
    const overlapSeconds = Math.round(duration(values.overlap, '--overlap') / 1000);
    const rotated = await tenantApi({ url: values.url, key: values.key }).request(WebhookSecretRotatedSchema, 'POST', '/webhook-secret/rotate', {
      overlapSeconds,
    });
    if (values.json) {
      console.log(JSON.stringify(rotated, null, 2));
      return 0;
    }
    console.log(`webhook secret  ${rotated.webhookSecret}`);
    console.log(`The previous secret still verifies until ${rotated.previousValidUntil}. The new one is shown only this once: store it now.`);
    return 0;
  },
};
