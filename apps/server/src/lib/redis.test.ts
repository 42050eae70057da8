import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requireRedis, TEST_REDIS_URL } from '../../test/redis.js';
import { createRedisClient, REDIS_OPTIONS } from './redis.js';

await requireRedis();

/**
 * A relay to the test Redis that can drop its connections: `drop()` closes every one, and the
 * client connects again through the same relay, as after a short network outage.
 */
async function droppingRelay() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    drop: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const opened: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

describe('a Redis connection that broke with a command in flight', () => {
  it('keeps the connection made again: the command it lost does not time it out later', async () => {
    const relay = await droppingRelay();
    const errors: Error[] = [];
    const client = createRedisClient(relay.url, { onError: (error) => errors.push(error) });
    opened.push(() => client.disconnect(), relay.close);
    await new Promise((resolve) => client.once('ready', resolve));

    // A command Redis answers only after a second, so that it is surely in flight when the connection drops.
    const lost = client.blpop(`test:nothing:${Date.now()}`, 1).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    relay.drop();
    expect(await lost).toBeInstanceOf(Error);
    await new Promise((resolve) => client.once('ready', resolve));
    errors.length = 0;

    // The new connection answers, and is still the same one past the lost command's socket timeout.
    const connectedAt = Date.now();
    let closes = 0;
    client.on('close', () => {
      closes += 1;
    });
    while (Date.now() - connectedAt < REDIS_OPTIONS.socketTimeout + 500) {
      expect(await client.ping()).toBe('PONG');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(closes).toBe(0);
    expect(errors).toEqual([]);
  }, 15_000);
});
