import { z } from 'zod';
import { PRODUCT_TYPES } from '../product/product-types.js';

/** Metadata of a group, carried as JSON text in the wire shape's `description` (spec section 3). */
export const GroupMetadataSchema = z.object({
  parent: z.string().optional(),
  ownerId: z.string().nullable(),
  seats: z.number().int(),
  memberCount: z.number().int(),
  /**
   * An organisation's members who hold a seat: its members but the subscribed ones (decision 0035).
   * Absent for a sub-group, which has no seats of its own.
   */
  seatHolders: z.number().int().optional(),
  /**
   * An organisation's pending, unexpired invitations that keep a seat (not through a subscription),
   * counted as the seat check counts them (decision 0035). Absent for a sub-group.
   */
  pendingSeatInvitations: z.number().int().optional(),
  /** The seats an organisation has left: seats less seat-holders and pending invitations, never below 0. */
  openSeats: z.number().int().optional(),
  productType: z.enum(PRODUCT_TYPES),
  dev: z.boolean(),
  testing: z.boolean(),
  debug: z.boolean(),
  ai: z.boolean(),
  inactive: z.boolean(),
  /** A free-text description of the organisation (absent when empty). */
  about: z.string().optional(),
});
export type GroupMetadata = z.infer<typeof GroupMetadataSchema>;

/** A group (organisation or sub-group) as the API answers it. */
export const GroupSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  members: z.array(z.string()).optional(),
  owner: z.string().nullable().optional(),
});
export type Group = z.infer<typeof GroupSchema>;
export const GroupListSchema = z.array(GroupSchema);

export const SUBGROUP_PREFIX_SEPARATOR = '::';

/** The stored name of a sub-group: first 4 characters of the parent id, then '::' (decision 10). */
export function prefixSubgroupName(parentId: string, name: string): string {
  const prefix = `${parentId.slice(0, 4)}${SUBGROUP_PREFIX_SEPARATOR}`;
  return name.startsWith(prefix) ? name : `${prefix}${name}`;
}

/** The display name of a group: the sub-group prefix stripped. */
export function displayGroupName(name: string): string {
  return name.replace(/^[^:\s]{1,4}::/, '');
}

/** Replaces every prefixed sub-group name inside an error message with its plain name. */
export function stripGroupPrefixes(message: string): string {
  return message.replace(/(^|[\s'"(])[^:\s'"]{4}::/g, '$1');
}

export function parseGroupMetadata(group: Pick<Group, 'description'>): GroupMetadata | null {
  try {
    const parsed = GroupMetadataSchema.safeParse(JSON.parse(group.description));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
