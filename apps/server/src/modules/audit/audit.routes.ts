import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AuditExportQuery,
  AuditExportQuerySchema,
  AuditPageSchema,
  AuditQuerySchema,
  auditExportFileName,
  OrgAuditExportQuerySchema,
  OrgAuditQuerySchema,
} from '@patientsim/domain/audit/audit.schemas';
import { IdParamsSchema } from '@patientsim/domain/common/api.schemas';
import type { Database } from '../../db/client.js';
import { currentOrg } from '../../lib/access.js';
import { exportAuditEvents, listAuditEvents } from './audit.service.js';
import { errorResponses } from '../../lib/error-responses.js';

const errors = errorResponses(400, 401, 403, 404);

/** Streams the CSV export as it is read, batch by batch (audit.service.ts#exportAuditEvents). */
function sendCsv(reply: FastifyReply, db: Database, query: AuditExportQuery): void {
  void reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${auditExportFileName(query, new Date())}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(exportAuditEvents({ db, query })));
}

/** The audit trail: the provider's (every organisation) and an organisation admin's (their own). */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['audit'];
  const security = [{ bearer: [] }];
  const orgFrom = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.get(
    '/audit-events',
    {
      preHandler: app.requirePermission('audit:read-all'),
      schema: { tags, security, querystring: AuditQuerySchema, response: { 200: AuditPageSchema, ...errors } },
    },
    (request) => listAuditEvents({ db: app.db, query: request.query }),
  );

  app.get(
    '/audit-events/export',
    {
      preHandler: app.requirePermission('audit:read-all'),
      schema: {
        tags,
        security,
        querystring: AuditExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    (request, reply) => {
      sendCsv(reply, app.db, request.query);
    },
  );

  app.get(
    '/extension/groups/:id/audit-events',
    {
      preHandler: app.requireOrgPermission('org:audit:read', { orgFrom }),
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

  app.get(
    '/extension/groups/:id/audit-events/export',
    {
      preHandler: app.requireOrgPermission('org:audit:read', { orgFrom }),
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        querystring: OrgAuditExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...errors },
      },
    },
    (request, reply) => {
      sendCsv(reply, app.db, { ...request.query, orgId: currentOrg(request).orgId });
    },
  );
};
