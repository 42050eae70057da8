import { describe, expect, it } from 'vitest';
import { reachesOrganisationContent } from '../account/subscription.js';
import { describeSeatBreakdown, describeSeatsUsed, keepsSeats, seatFigures, seatFiguresIn, seatsUsed } from './seats.js';

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

describe('the seat figures the screens show', () => {
  it('are the seats used of the rule, and the seats left, never below 0', () => {
    expect(seatFigures(25, use(12, 6))).toEqual({ seats: 25, seatHolders: 12, pendingSeatInvitations: 6, used: 18, open: 7 });
    expect(seatFigures(3, use(3, 2))).toMatchObject({ used: 5, open: 0 });
  });

  it('open exactly as many seats as invitations the rule lets through', () => {
    const before = use(12, 6);
    const { open } = seatFigures(25, before);
    expect(keepsSeats({ before, after: use(12, 6 + open), seats: 25 })).toBe(true);
    expect(keepsSeats({ before, after: use(12, 6 + open + 1), seats: 25 })).toBe(false);
  });

  it('come from an organisation’s metadata only when its pending invitations were counted', () => {
    expect(seatFiguresIn({ seats: 10, seatHolders: 4, pendingSeatInvitations: 1 })).toMatchObject({ used: 5, open: 5 });
    expect(seatFiguresIn({ seats: 10, seatHolders: 4 })).toBeNull();
    expect(seatFiguresIn({ seats: 0 })).toBeNull();
  });

  it('read the same wherever they are shown', () => {
    expect(describeSeatsUsed(seatFigures(25, use(12, 6)))).toBe('18 of 25 seats used');
    expect(describeSeatBreakdown(seatFigures(25, use(12, 6)))).toBe('12 members, 6 pending invitations, 7 open seats');
    expect(describeSeatBreakdown(seatFigures(3, use(1, 1)))).toBe('1 member, 1 pending invitation, 1 open seat');
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
