import { describe, expect, it } from 'vitest';
import { reachesOrganisationContent } from '../account/subscription.js';
import { keepsSeats, seatsUsed } from './seats.js';

const use = (seatHolders: number, pendingSeatInvitations: number) => ({ seatHolders, pendingSeatInvitations });

describe('the seat rule', () => {
  it('counts seat-holders and the seats pending invitations keep', () => {
    expect(seatsUsed(use(3, 2))).toBe(5);
  });

  it('lets invitations and moves take free seats only', () => {
    expect(keepsSeats({ before: use(2, 1), after: use(2, 2), seats: 4 })).toBe(true);
    expect(keepsSeats({ before: use(2, 2), after: use(2, 3), seats: 4 })).toBe(false);
    expect(keepsSeats({ before: use(2, 1), after: use(3, 1), seats: 4 })).toBe(true);
    expect(keepsSeats({ before: use(3, 1), after: use(4, 1), seats: 4 })).toBe(false);
  });

  it('lets an acceptance take the seat its invitation kept, unless the seat-holders would exceed lowered seats', () => {
    expect(keepsSeats({ before: use(3, 1), after: use(4, 0), seats: 4 })).toBe(true);
    expect(keepsSeats({ before: use(2, 3), after: use(3, 2), seats: 3 })).toBe(true);
    expect(keepsSeats({ before: use(3, 2), after: use(4, 1), seats: 3 })).toBe(false);
  });

  it('lets what takes no seat through an organisation over its seats', () => {
    expect(keepsSeats({ before: use(5, 1), after: use(5, 1), seats: 3 })).toBe(true);
    expect(keepsSeats({ before: use(5, 1), after: use(5, 0), seats: 3 })).toBe(true);
  });
});

describe('the organisation’s content', () => {
  const metadata = (subscribedOrgs: string[], subscriptionActive: boolean) => ({ subscribedOrgs, subscriptionActive });

  it('reaches a seat-holder always, a subscribed member only with an active subscription of their own', () => {
    expect(reachesOrganisationContent(metadata([], false), 'org')).toBe(true);
    expect(reachesOrganisationContent(metadata(['org'], false), 'org')).toBe(false);
    expect(reachesOrganisationContent(metadata(['org'], true), 'org')).toBe(true);
    expect(reachesOrganisationContent(metadata(['other'], false), 'org')).toBe(true);
  });
});
