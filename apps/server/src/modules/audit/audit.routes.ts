import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditPageSchema, AuditQuerySchema, OrgAuditQuerySchema } from '@patientsim/domain/audit/audit.schemas';
import { ErrorBodySchema, IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import { currentOrg } from '../../plugins/app/org-access.js';
import { listAuditEvents } from './audit.service.js';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The audit trail: the provider's (every organisation) and an organisation admin's (their own). */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['audit'];
  const security = [{ bearer: [] }];

  app.get(
    '/audit-events',
    {
      preHandler: app.requirePermission('audit:read-all'),
      schema: { tags, security, querystring: AuditQuerySchema, response: { 200: AuditPageSchema, ...errors } },
    },
    (request) => listAuditEvents({ db: app.db, query: request.query }),
  );

  app.get(
    '/extension/groups/:id/audit-events',
    {
      preHandler: app.requireOrgPermission('org:audit:read', { orgFrom: (request) => (request.params as { id: string }).id }),
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        querystring: OrgAuditQuerySchema,
        response: { 200: AuditPageSchema, ...errors },
      },
    },
    (request) => listAuditEvents({ db: app.db, query: { ...request.query, orgId: currentOrg(request).orgId } }),
  );
};
