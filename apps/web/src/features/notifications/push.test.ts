import { describe, expect, it } from 'vitest';
import { PUSH } from '@versus/domain';
import { base64UrlToBytes, disablePush, enablePush, type PushBrowser, type PushServer } from './push.ts';

const SERVER_KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i))).toString('base64url');

class FakeSubscription {
  unsubscribed = false;
  constructor(
    readonly endpoint: string,
    readonly options: { applicationServerKey: ArrayBuffer | null },
  ) {}
  toJSON(): PushSubscriptionJSON {
    return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: 'BPk', auth: 'YXV0aA' } };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    return true;
  }
}

function fakes(
  options: { permission?: NotificationPermission; answer?: NotificationPermission; existing?: FakeSubscription; noWorker?: boolean } = {},
) {
  const calls: string[] = [];
  let current: FakeSubscription | null = options.existing ?? null;
  const subscribeOptions: PushSubscriptionOptionsInit[] = [];
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (init: PushSubscriptionOptionsInit) => {
      subscribeOptions.push(init);
      const key = init.applicationServerKey as Uint8Array;
      current = new FakeSubscription('https://fcm.googleapis.com/fcm/send/new', { applicationServerKey: key.slice().buffer });
      return current;
    },
  };
  const browser: PushBrowser = {
    registration: async () => (options.noWorker ? null : ({ pushManager } as unknown as Pick<ServiceWorkerRegistration, 'pushManager'>)),
    permission: () => options.permission ?? 'granted',
    requestPermission: async () => {
      calls.push('requestPermission');
      return options.answer ?? 'granted';
    },
    userAgent: 'TestBrowser/1.0',
  };
  const posted: unknown[] = [];
  const deleted: string[] = [];
  const server: PushServer = {
    publicKey: async () => SERVER_KEY,
    subscribe: async (body) => {
      posted.push(body);
    },
    unsubscribe: async (endpoint) => {
      deleted.push(endpoint);
    },
  };
  return { browser, server, calls, posted, deleted, subscribeOptions, current: () => current };
}

describe('enablePush', () => {
  it("subscribes with the server's VAPID key and posts the subscription with the user agent", async () => {
    const f = fakes();
    await expect(enablePush(f.browser, f.server)).resolves.toBe('https://fcm.googleapis.com/fcm/send/new');
    expect(f.subscribeOptions).toHaveLength(1);
    expect(f.subscribeOptions[0]!.userVisibleOnly).toBe(true);
    expect(Array.from(f.subscribeOptions[0]!.applicationServerKey as Uint8Array)).toEqual(Array.from(base64UrlToBytes(SERVER_KEY)));
    expect(f.posted).toEqual([
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/new',
        expirationTime: null,
        keys: { p256dh: 'BPk', auth: 'YXV0aA' },
        userAgent: 'TestBrowser/1.0',
      },
    ]);
  });

  it('asks for permission when not yet decided, and stops when it is refused', async () => {
    const asked = fakes({ permission: 'default', answer: 'granted' });
    await enablePush(asked.browser, asked.server);
    expect(asked.calls).toEqual(['requestPermission']);

    const refused = fakes({ permission: 'default', answer: 'denied' });
    await expect(enablePush(refused.browser, refused.server)).rejects.toThrow(PUSH.blocked);
    expect(refused.posted).toEqual([]);
    const blocked = fakes({ permission: 'denied' });
    await expect(enablePush(blocked.browser, blocked.server)).rejects.toThrow(PUSH.blocked);
    expect(blocked.calls).toEqual([]);
  });

  it('says so when the browser has no push or no service worker', async () => {
    const f = fakes();
    await expect(enablePush(null, f.server)).rejects.toThrow(PUSH.unsupported);
    const noWorker = fakes({ noWorker: true });
    await expect(enablePush(noWorker.browser, noWorker.server)).rejects.toThrow(PUSH.unsupported);
  });

  it('re-registers an existing subscription made with the same key, and replaces one made with another', async () => {
    const same = new FakeSubscription('https://fcm.googleapis.com/fcm/send/old', {
      applicationServerKey: base64UrlToBytes(SERVER_KEY).buffer,
    });
    const kept = fakes({ existing: same });
    await expect(enablePush(kept.browser, kept.server)).resolves.toBe('https://fcm.googleapis.com/fcm/send/old');
    expect(kept.subscribeOptions).toHaveLength(0);
    expect(same.unsubscribed).toBe(false);

    const stale = new FakeSubscription('https://fcm.googleapis.com/fcm/send/stale', {
      applicationServerKey: new Uint8Array(65).fill(9).buffer,
    });
    const replaced = fakes({ existing: stale });
    await expect(enablePush(replaced.browser, replaced.server)).resolves.toBe('https://fcm.googleapis.com/fcm/send/new');
    expect(stale.unsubscribed).toBe(true);
  });

  it('fails with the server refusal as its message', async () => {
    const f = fakes();
    f.server.subscribe = async () => {
      throw new Error('The push endpoint must be the https address of a known push service');
    };
    await expect(enablePush(f.browser, f.server)).rejects.toThrow('known push service');
  });
});

describe('disablePush', () => {
  it('tells the server, then drops the browser subscription', async () => {
    const existing = new FakeSubscription('https://fcm.googleapis.com/fcm/send/mine', { applicationServerKey: null });
    const f = fakes({ existing });
    await disablePush(f.browser, f.server);
    expect(f.deleted).toEqual(['https://fcm.googleapis.com/fcm/send/mine']);
    expect(existing.unsubscribed).toBe(true);
  });

  it('does nothing without a subscription', async () => {
    const f = fakes();
    await disablePush(f.browser, f.server);
    expect(f.deleted).toEqual([]);
  });
});

describe('base64UrlToBytes', () => {
  it('decodes unpadded base64url', () => {
    expect(Array.from(base64UrlToBytes('-_8'))).toEqual([0xfb, 0xff]);
    expect(base64UrlToBytes(SERVER_KEY)).toHaveLength(65);
  });
});
