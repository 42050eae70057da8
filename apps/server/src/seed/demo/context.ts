import type { DemoOrgKey, DemoSubgroupKey } from './organisations.js';

/** What every subject of the demo seed shares: the date it is anchored on and the ids chosen up front. */
export type DemoContext = {
  /** Anchors every relative date. */
  now: Date;
  /** Account ids by e-mail. */
  userIds: ReadonlyMap<string, string>;
  orgIds: Readonly<Record<DemoOrgKey, string>>;
  subgroupIds: Readonly<Record<DemoSubgroupKey, string>>;
};

export const DAY_MS = 24 * 60 * 60 * 1000;

export function daysAgo(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** The id of a demo account; a typo in the seed's own tables fails loudly. */
export function idOf(ids: ReadonlyMap<string, string>, email: string): string {
  const id = ids.get(email);
  if (!id) throw new Error(`No demo account ${email}`);
  return id;
}

export function entriesOf<K extends string, V>(record: Record<K, V>): [K, V][] {
  return Object.entries(record) as [K, V][];
}

export function mapValues<K extends string, V, W>(record: Record<K, V>, map: (value: V, key: K) => W): Record<K, W> {
  return Object.fromEntries(entriesOf(record).map(([key, value]) => [key, map(value, key)])) as Record<K, W>;
}
