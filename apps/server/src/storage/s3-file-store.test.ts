// The S3 store against an S3-compatible server run here (s3rver), and what it sends on the wire
// to a recording stand-in: method, path-style path, headers (type, length, signature) and body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { binary, fileStoreContract } from './file-store.contract.ts';
import { S3FileStore } from './s3-file-store.ts';

let server: TestS3Server;
let store: S3FileStore;
beforeAll(async () => {
  server = await startS3Server();
  store = await S3FileStore.open(server.settings);
});
afterAll(async () => {
  store?.close();
  await server?.close();
});

fileStoreContract('S3FileStore on s3rver', () => store);

describe('S3FileStore on s3rver', () => {
  it('says so when its bucket does not exist', async () => {
    const missing = await S3FileStore.open({ ...server.settings, bucket: 'no-such-bucket' });
    try {
      await expect(missing.check()).rejects.toThrow('S3 bucket "no-such-bucket" does not exist');
    } finally {
      missing.close();
    }
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Records every request and answers each with the next of `answers` (status, headers, body). */
async function recorder(answers: [number, Record<string, string>, string | Buffer][]) {
  const requests: Recorded[] = [];
  const fake = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      const [status, headers, body] = answers.shift() ?? [500, {}, 'no answer left'];
      res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const s3 = await S3FileStore.open({
    bucket: 'versus-files',
    endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDRECORDED', secretAccessKey: 'recorded-secret' },
    forcePathStyle: true,
  });
  return {
    requests,
    s3,
    async close() {
      s3.close();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    },
  };
}

const xml = { 'content-type': 'application/xml' };
const notFound = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>gone</Message></Error>`;

describe('S3FileStore on the wire (recorded)', () => {
  it('puts, gets, deletes and checks with signed path-style requests S3 documents', async () => {
    const png = binary(1000);
    const webp = binary(300);
    const wire = await recorder([
      [200, { etag: '"e1"' }, ''],
      [200, { 'content-type': 'image/webp', 'content-length': String(webp.length), etag: '"e2"' }, webp],
      [404, xml, notFound('NoSuchKey')],
      [204, {}, ''],
      [404, {}, ''],
    ]);
    try {
      await wire.s3.put('avatars/u1/u1-1.png', png, 'image/png');
      expect(await wire.s3.get('avatars/u1/u1-2.webp')).toEqual({ data: webp, contentType: 'image/webp', size: webp.length });
      expect(await wire.s3.get('avatars/u1/gone.png')).toBeNull();
      await wire.s3.delete('avatars/u1/u1-1.png');
      await expect(wire.s3.check()).rejects.toThrow('S3 bucket "versus-files" does not exist');

      const [put, get, missing, del, head] = wire.requests;
      expect(wire.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
        'PUT /versus-files/avatars/u1/u1-1.png',
        'GET /versus-files/avatars/u1/u1-2.webp',
        'GET /versus-files/avatars/u1/gone.png',
        'DELETE /versus-files/avatars/u1/u1-1.png',
        'HEAD /versus-files/',
      ]);
      expect(put!.headers['content-type']).toBe('image/png');
      expect(put!.headers['content-length']).toBe(String(png.length));
      expect(Buffer.compare(put!.body, png)).toBe(0);
      for (const request of [put!, get!, missing!, del!, head!]) {
        expect(request.headers.authorization).toMatch(
          new RegExp(
            /^AWS4-HMAC-SHA256 Credential=AKIDRECORDED\/\d{8}\/eu-west-1\/s3\/aws4_request, /.source +
              /SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/.source,
          ),
        );
        expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
        expect(request.headers['x-amz-content-sha256']).toBeDefined();
        expect(request.headers.host).toBe(new URL(`http://${request.headers.host}`).host);
      }
      // Only what S3 needs: no SDK checksum headers some S3-compatible services refuse.
      expect(Object.keys(put!.headers).filter((h) => h.startsWith('x-amz-checksum') || h === 'x-amz-sdk-checksum-algorithm')).toEqual([]);
    } finally {
      await wire.close();
    }
  });

  it('throws on an error other than not found (a refused request is not a missing file)', async () => {
    const wire = await recorder([[403, xml, notFound('AccessDenied')]]);
    try {
      await expect(wire.s3.get('evidence/m1/x.png')).rejects.toMatchObject({ name: 'AccessDenied' });
      expect(wire.requests).toHaveLength(1);
    } finally {
      await wire.close();
    }
  });
});
