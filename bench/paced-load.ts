import { Agent, request } from 'node:http';

export interface PacedRequest {
  body: string;
  headers: Record<string, string>;
  /** Where on the url's origin this request goes, when not to the url itself (one of several tenants' connections). */
  path?: string;
}

export interface PacedLoadOptions {
  url: string;
  /** Requests per second, sent evenly spaced whatever the answers do. */
  rate: number;
  seconds: number;
  /** Keep-alive connections at most; a request due while all are busy waits for one, and that wait counts. */
  connections: number;
  /** Called at each request's send time, so every request is built (and signed) when it goes. */
  next: () => PacedRequest;
  onSecond?: (second: number) => void;
}

export interface PacedLoadResult {
  /** Requests answered, whatever their status. */
  answered: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * An open-loop load: request i is due at start + i / rate, and its latency
 * runs from that moment to the end of its answer, so a slow answer neither
 * holds the next requests back nor hides the queue it causes (no coordinated
 * omission). autocannon's `overallRate` does neither: each connection sends
 * its share of a second back to back as soon as the second starts, then
 * idles, so the "rate" arrives as one burst a second.
 */
export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const total = Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let second = 0;

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const { body, headers, path } = options.next();
      const outgoing = request(
        path === undefined ? target : new URL(path, target),
        { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.once('end', () => {
            latencies.push(performance.now() - due);
            if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) non2xx++;
            resolve();
          });
        },
      );
      outgoing.once('error', () => {
        errors++;
        resolve();
      });
      outgoing.end(body);
    });

  for (let sent = 0; sent < total;) {
    const now = performance.now();
    for (; sent < total && start + sent * intervalMs <= now; sent++) inFlight.push(send(start + sent * intervalMs));
    const elapsed = Math.floor((now - start) / 1000);
    if (elapsed > second) options.onSecond?.((second = elapsed));
    if (sent < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * intervalMs - performance.now())));
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0);
  return { answered: latencies.length, rps: latencies.length / elapsedSeconds, p50: percentile(50), p99: percentile(99), non2xx, errors };
}
