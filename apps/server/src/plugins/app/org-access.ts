import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { hasPermission, type Permission } from '@patientsim/domain/roles/permissions';
import { currentUser, roleInOrganisation } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { findGroupById } from '../../modules/organisations/organisations.service.js';

export type OrgAccessOptions = {
  /** The id of the group the request acts on (from its params, query or body). */
  orgFrom: (request: FastifyRequest) => string;
  /** Writes in an inactive organisation are refused (but for super admins), unless allowed. */
  allowInactive?: boolean;
};

// Module augmentation needs interfaces.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler factory: a signed-in caller (see requirePermission) whose **current** role in the
     * organisation of the named group grants `permission`. Not a member there: 404 (never reveal
     * another organisation); a role without the permission: 403; a write in an inactive
     * organisation: 422.
     */
    requireOrgPermission: (permission: Permission, options: OrgAccessOptions) => (request: FastifyRequest) => Promise<void>;
    /** preHandler factory: as `requireOrgPermission`, for any role the caller holds in the organisation. */
    requireOrgMembership: (options: OrgAccessOptions) => (request: FastifyRequest) => Promise<void>;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

/** Authorisation per organisation: the permission table applied to the caller's role there. */
export default fp(
  async (app) => {
    app.decorateRequest('org', null);
    const signedIn = app.signedIn();
    const orgGuard = (permission: Permission | null, options: OrgAccessOptions) => async (request: FastifyRequest) => {
      await signedIn(request);
      const user = currentUser(request);
      const group = await findGroupById(app.db, options.orgFrom(request));
      if (!group) throw new AppError('NOT_FOUND');
      const orgId = group.parentId ?? group.id;
      const role = roleInOrganisation(user, orgId);
      if (role === null) throw new AppError('NOT_FOUND');
      if (permission && !hasPermission(role, permission)) throw new AppError('FORBIDDEN');
      const isInactive = user.groupsData.find((entry) => entry._id === orgId)?.inactive ?? false;
      const isWrite = request.method !== 'GET';
      if (isWrite && isInactive && role !== 'SUPER_ADMIN' && !options.allowInactive) throw new AppError('ORGANIZATION_INACTIVE');
      request.org = { group, orgId, role, isInactive };
    };
    app.decorate('requireOrgPermission', (permission: Permission, options: OrgAccessOptions) => orgGuard(permission, options));
    app.decorate('requireOrgMembership', (options: OrgAccessOptions) => orgGuard(null, options));
  },
  { name: 'org-access', dependencies: ['authenticate'] },
);
