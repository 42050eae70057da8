import { randomInt } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { requireRedis, testRedisUrlOnDatabase } from '../../test/redis.js';
import { createRedisInvalidations, type Topic } from './invalidation.js';
import { createReadCache } from './read-cache.js';
import { createRedisClient } from './redis.js';

await requireRedis();

// A database of this file's own: its channel hears no other test's announcements.
const database = 1 + randomInt(15);
const otherDatabase = 1 + ((database + randomInt(14)) % 15);
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A Redis client for one process, closed after the file. */
function connect(url: string) {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  // A cut connection (below) reports errors while it retries; the tests look at what follows.
  redis.on('error', () => {});
  closers.push(() => redis.quit().catch(() => redis.disconnect()));
  return redis;
}

/** A Redis client as the server makes it (lib/redis.ts), closed after the file. */
function connectAsTheServer(url: string) {
  const redis = createRedisClient(url, { onError: () => {} });
  closers.push(() => redis.quit().catch(() => redis.disconnect()));
  return redis;
}

/** One process's invalidations on `url`, with a count of what it heard per topic. */
async function processOn(url: string, redis = connect(url)) {
  const invalidations = await createRedisInvalidations(redis);
  closers.push(() => invalidations.close());
  const heard: Record<Topic, number> = { identity: 0, keys: 0 };
  invalidations.listen('identity', () => (heard.identity += 1));
  invalidations.listen('keys', () => (heard.keys += 1));
  return { invalidations, heard };
}

/**
 * A TCP relay to Redis whose connections the test can cut, and refuse, to stand for a network
 * failure; or hold, forwarding nothing either way without closing anything, to stand for a
 * partition or a stuck proxy.
 */
async function createRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let isOpen = true;
  let isHeld = false;
  const server = net.createServer((client) => {
    if (!isOpen) return void client.destroy();
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    for (const socket of pair) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    pairs.add(pair);
    if (isHeld) client.pause();
    else client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut() {
      isOpen = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      isOpen = true;
    },
    hold() {
      isHeld = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    release() {
      if (!isHeld) return;
      isHeld = false;
      for (const [client, upstream] of pairs) client.pipe(upstream).pipe(client);
    },
  };
}

const url = testRedisUrlOnDatabase(database);

describe('invalidations through Redis', () => {
  it('reach every other process on the topic announced, not the one that announced it', async () => {
    const [writer, reader, bystander] = [await processOn(url), await processOn(url), await processOn(url)];
    writer.invalidations.announce('identity');
    await vi.waitFor(() => expect(reader.heard.identity).toBe(1), { timeout: 2_000, interval: 5 });
    await vi.waitFor(() => expect(bystander.heard.identity).toBe(1), { timeout: 2_000, interval: 5 });
    writer.invalidations.announce('keys');
    await vi.waitFor(() => expect(reader.heard.keys).toBe(1), { timeout: 2_000, interval: 5 });
    expect(writer.heard).toEqual({ identity: 0, keys: 0 });
    expect(reader.heard).toEqual({ identity: 1, keys: 1 });
  });

  it('stay within one Redis database: a deployment on another one does not hear them', async () => {
    const [writer, sameDatabase] = [await processOn(url), await processOn(url)];
    const elsewhere = await processOn(testRedisUrlOnDatabase(otherDatabase));
    const elsewhereWriter = await processOn(testRedisUrlOnDatabase(otherDatabase));
    writer.invalidations.announce('identity');
    await vi.waitFor(() => expect(sameDatabase.heard.identity).toBe(1), { timeout: 2_000, interval: 5 });
    // Redis handles one command at a time: an announcement made after the first one was delivered
    // reaches `elsewhere` after the first one would have.
    elsewhereWriter.invalidations.announce('keys');
    await vi.waitFor(() => expect(elsewhere.heard.keys).toBe(1), { timeout: 2_000, interval: 5 });
    expect(elsewhere.heard.identity).toBe(0);
  });

  it('make a read cache forget what another process changed', async () => {
    const writer = await processOn(url);
    const reader = await processOn(url);
    const cache = createReadCache({ ttlMs: 3_600_000, invalidations: reader.invalidations });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('claims', load)).toBe(1);
    expect(await cache.get('claims', load)).toBe(1);
    const writerCache = createReadCache({ ttlMs: 3_600_000, invalidations: writer.invalidations });
    writerCache.clear();
    await vi.waitFor(() => expect(reader.heard.identity).toBe(1), { timeout: 2_000, interval: 5 });
    expect(await cache.get('claims', load)).toBe(2);
  });

  it('trust nothing remembered while the subscription is down, and forget everything once it is back', async () => {
    const relay = await createRelay(new URL(url));
    const reader = await processOn(relay.url);
    const cache = createReadCache({ ttlMs: 3_600_000, invalidations: reader.invalidations });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('claims', load)).toBe(1);
    expect(reader.invalidations.isListening()).toBe(true);

    // Announcements made now would be lost: every read goes to the database.
    relay.cut();
    await vi.waitFor(() => expect(reader.invalidations.isListening()).toBe(false), { timeout: 2_000, interval: 5 });
    expect(await cache.get('claims', load)).toBe(2);
    expect(await cache.get('claims', load)).toBe(3);

    relay.restore();
    await vi.waitFor(() => expect(reader.invalidations.isListening()).toBe(true), { timeout: 10_000, interval: 10 });
    expect(reader.heard).toEqual({ identity: 1, keys: 1 });
    expect(await cache.get('claims', load)).toBe(4);
    expect(await cache.get('claims', load)).toBe(4);

    // And it hears announcements again.
    const writer = await processOn(url);
    writer.invalidations.announce('identity');
    await vi.waitFor(() => expect(reader.heard.identity).toBe(2), { timeout: 2_000, interval: 5 });
    expect(await cache.get('claims', load)).toBe(5);
  });

  it('stop trusting what they remember when Redis stops answering without closing, and subscribe again once it answers', async () => {
    const relay = await createRelay(new URL(url));
    // Should the test stop half-way, the relay's connections still close after it.
    closers.push(async () => relay.release());
    const reader = await processOn(relay.url, connectAsTheServer(relay.url));
    expect(reader.invalidations.isListening()).toBe(true);

    // Nothing is sent on a subscription: only the connection's own check finds Redis silent.
    relay.hold();
    await vi.waitFor(() => expect(reader.invalidations.isListening()).toBe(false), { timeout: 15_000, interval: 10 });

    relay.release();
    await vi.waitFor(() => expect(reader.invalidations.isListening()).toBe(true), { timeout: 15_000, interval: 10 });
    expect(reader.heard).toEqual({ identity: 1, keys: 1 });
    const writer = await processOn(url);
    writer.invalidations.announce('identity');
    await vi.waitFor(() => expect(reader.heard.identity).toBe(2), { timeout: 2_000, interval: 5 });
  }, 40_000);
});
