import { describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain';
import { checkHealth } from './health-check.ts';

describe('checkHealth', () => {
  it('reports the latency of a good answer and the status of a bad one', async () => {
    let t = 100;
    const clock = () => (t += 25);
    const ok = await checkHealth(async () => new Response('{}', { status: 200 }), clock);
    expect(ok).toMatchObject({ ok: true, latencyMs: 25, status: 200 });
    const down = await checkHealth(async () => new Response('{}', { status: 503 }), clock);
    expect(down).toMatchObject({ ok: false, status: 503, detail: 'HTTP 503' });
  });
  it('maps a timeout and a network failure to SPEC texts', async () => {
    const timeout = await checkHealth(async () => {
      throw new DOMException('timed out', 'TimeoutError');
    });
    expect(timeout).toMatchObject({ ok: false, detail: GENERIC.connectionTimeout });
    const network = await checkHealth(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(network).toMatchObject({ ok: false, detail: GENERIC.network });
  });
});
