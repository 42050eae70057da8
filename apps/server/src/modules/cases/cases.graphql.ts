/**
 * The case API in GraphQL (POST /api/graphql): mercurius in a scope of its own (the zod compilers
 * of the REST scopes break it), behind the bearer token. Every resolver validates its arguments
 * with the domain's schemas and calls the case service; errors carry the product's codes.
 */
import {
  CaseIdArgsSchema,
  CaseIdsArgsSchema,
  CaseListArgsSchema,
  DuplicateCaseArgsSchema,
  PublishTemplateArgsSchema,
  RestoreCaseArgsSchema,
  SaveCaseArgsSchema,
  SetTemplateAppLabArgsSchema,
  TemplateCasesArgsSchema,
  UpdateEffectChainsArgsSchema,
  UpsertCaseArgsSchema,
} from '@patientsim/domain/cases/case.schemas';
import { ERROR_CODES, isErrorCode } from '@patientsim/domain/errors/error-codes';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLResolveInfo,
  GraphQLScalarType,
  getOperationAST,
  Kind,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  parse as parseDocument,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';
import mercurius from 'mercurius';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { JSON_MAX_DEPTH } from '../../lib/json-depth.js';
import { currentUser, type RequestUser } from '../../lib/access.js';
import { LIST_DOCUMENT_KEYS, type ResultFields } from './cases.repository.js';
import * as service from './cases.service.js';
import { isQueryNestedDeeperThan, operationLimitsRule, queryTooComplex } from './graphql-limits.js';

export const GRAPHQL_PATH = '/api/graphql';
const QUERY_MAX_CHARS = 20_000;

export const CASE_SCHEMA = /* GraphQL */ `
  scalar JSON
  scalar DateTime

  enum CaseSortField { AVATAR_NAME START_LOCATION CREATED_AT END_LOCATION LAST_PLAYED LAST_ACCESSED PUBLISHED APPLAB NAME }
  enum SortDirection { ASC DESC }
  enum CaseAccessKind { READ WRITE RUN SHARE }
  enum CaseUpdateStatus { UPDATED DECLINED ERRORED }
  enum CaseUpdateChoice { YES NO }
  enum ProductType { EMS NURSING MILITARY }

  input CaseSortInput { field: CaseSortField!, direction: SortDirection! }
  input CaseFiltersInput { madeByMe: Boolean, sharedWithMe: Boolean, assignedToMe: Boolean, favorited: Boolean, template: Boolean }
  input CaseAccessListInput { groups: [String!]!, users: [String!]!, roles: [String!]!, productType: [String!]! }
  input CaseAccessInput { owner: ID, ownerOrg: ID, read: CaseAccessListInput!, write: CaseAccessListInput!, run: CaseAccessListInput!, share: CaseAccessListInput! }
  input CaseUpdateDecisionInput { id: ID!, choice: CaseUpdateChoice! }

  type Caption { en: String! }
  type CaptionedText { caption: Caption!, displayed: Boolean! }
  type Dispatch { learningObjectives: CaptionedText, chiefComplaint: CaptionedText }
  type Picture { url: String! }
  type Avatar { id: ID!, key: String!, name: Caption!, picture: Picture }
  type Location { name: Caption!, picture: Picture }
  type CaseAccessList { groups: [String!]!, users: [String!]!, roles: [String!]!, productType: [String!]! }
  type CaseAccess { owner: ID, ownerOrg: ID, read: CaseAccessList!, write: CaseAccessList!, run: CaseAccessList!, share: CaseAccessList! }
  type CaseShare { shareType: String!, from: ID!, to: ID! }
  type TimedAccess { users: [ID!]!, groups: [ID!]! }
  type Author { id: ID!, name: String! }

  type CaseConfiguration {
    id: ID!
    name: String!
    tags: String
    dispatch: Dispatch
    access: CaseAccess!
    author: Author
    _avatar: Avatar
    _startLocation: Location
    _endLocation: Location
    isTemplate: Boolean!
    isFavorite: Boolean!
    lastPlayed: DateTime
    lastAccessed: DateTime
    createdAt: DateTime!
    needsEcUpdate: Boolean!
    ignoreEcUpdate: Boolean!
    updateStatus: CaseUpdateStatus
    errorsCount: Int!
    warningsCount: Int!
    outdatedMedications: [String!]!
    outdatedEcNodes: [String!]!
    shares: [CaseShare!]!
    timed_access: TimedAccess
    searchableText: String!
    origin: String
    published: Boolean!
    applab: Boolean!
    "Whether the caller may update this case (write access); others read its update status only."
    canUpdate: Boolean!
  }

  type CaseConfigurationPage {
    items: [CaseConfiguration!]!
    nextCursor: String
    "How many cases the query matches, counted up to 1,000."
    totalCount: Int!
    "Whether there are more than 1,000 (then totalCount is 1,000)."
    totalCountCapped: Boolean!
  }
  "A refused decision carries the reason (error) and its code (errorCode): CASE_UPDATE_REFUSED, CASE_UPDATE_NOT_PENDING or NOT_FOUND."
  type CaseUpdateResult { id: ID!, updateStatus: CaseUpdateStatus, ignoreEcUpdate: Boolean!, error: String, errorCode: String }

  type Query {
    caseConfigurations(withAccess: CaseAccessKind = READ, sortBy: CaseSortInput, filters: CaseFiltersInput,
                       search: String, first: Int = 50, after: String): CaseConfigurationPage!
    caseConfiguration(id: ID!): CaseConfiguration
    templateCases(productType: ProductType!): [CaseConfiguration!]!
  }

  type Mutation {
    dumpCase(id: ID!): JSON!
    restoreCase(dump: JSON!, ownerOrg: ID!): CaseConfiguration!
    bulkRemoveCaseConfigurations(ids: [ID!]!): Int!
    upsertCaseConfiguration(id: ID!, access: CaseAccessInput, isTemplate: Boolean): CaseConfiguration!
    publishTemplate(id: ID!, published: Boolean!): CaseConfiguration!
    setTemplateAppLab(id: ID!, applab: Boolean!): CaseConfiguration!
    updateEffectChains(decisions: [CaseUpdateDecisionInput!]!): [CaseUpdateResult!]!
    addFavorite(id: ID!): CaseConfiguration!
    removeFavorite(id: ID!): CaseConfiguration!
    removeCaseConfiguration(id: ID!): Boolean!
    duplicateCaseConfiguration(id: ID!, newCaseName: String!): CaseConfiguration!
    saveCaseConfiguration(id: ID!, document: JSON!): CaseConfiguration!
  }
`;

const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO-8601 instant in UTC',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw new GraphQLError('Invalid DateTime');
    return new Date(value).toISOString();
  },
});

type Context = { actor: RequestUser; ip: string; db: FastifyInstance['db']; cache: FastifyInstance['cache'] };

/** The arguments checked with a domain schema; bad ones are VALIDATION_FAILED with the first issue. */
function parse<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw new AppError('VALIDATION_FAILED', {
    message: issue ? `${field ? `${field}: ` : ''}${issue.message}` : ERROR_CODES.VALIDATION_FAILED.message,
    details: result.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
  });
}

const ctxOf = (context: Context): service.CaseContext => ({
  db: context.db,
  cache: context.cache,
  actor: context.actor,
  ip: context.ip,
});

type Resolver = (root: unknown, args: Record<string, unknown>, context: Context, info: GraphQLResolveInfo) => unknown;

/**
 * The names of the fields selected under `path` (field names, never aliases) below the fields of
 * `info`, fragments expanded; a directive that skips a field is not read, so a field is at worst
 * read when it need not be.
 */
export function selectedFieldNames(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]) {
  const names = new Set<string>();
  const visit = (selectionSet: SelectionSetNode | undefined, depth: number, seen: ReadonlySet<string>) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (depth === path.length) names.add(selection.name.value);
        else if (selection.name.value === path[depth]) visit(selection.selectionSet, depth + 1, seen);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, depth, seen);
      } else if (!seen.has(selection.name.value)) {
        const fragment = info.fragments[selection.name.value];
        visit(fragment?.selectionSet, depth, new Set([...seen, selection.name.value]));
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, 0, new Set());
  return names;
}

/** What a list query reads of each case: only the large fields its items select (repo.ResultFields). */
function resultFieldsOf(info: GraphQLResolveInfo): ResultFields {
  const selected = selectedFieldNames(info, ['items']);
  return {
    access: selected.has('access'),
    searchableText: selected.has('searchableText'),
    documentKeys: LIST_DOCUMENT_KEYS.filter((key) => selected.has(key)),
  };
}

/** Whether a list query needs the list's count: its total, or a next cursor (which carries it). */
function countsOf(info: GraphQLResolveInfo): boolean {
  const selected = selectedFieldNames(info, []);
  return selected.has('totalCount') || selected.has('totalCountCapped') || selected.has('nextCursor');
}

const resolvers: {
  JSON: GraphQLScalarType;
  DateTime: GraphQLScalarType;
  Query: Record<string, Resolver>;
  Mutation: Record<string, Resolver>;
} = {
  JSON: JsonScalar,
  DateTime: DateTimeScalar,
  Query: {
    caseConfigurations: (_root, args, context, info) =>
      service.listCases(ctxOf(context), parse(CaseListArgsSchema, args), resultFieldsOf(info), countsOf(info)),
    caseConfiguration: (_root, args, context) => service.getCase(ctxOf(context), parse(CaseIdArgsSchema, args).id),
    templateCases: (_root, args, context) =>
      service.templateCases(ctxOf(context), parse(TemplateCasesArgsSchema, args).productType),
  },
  Mutation: {
    dumpCase: (_root, args, context) => service.dumpCase(ctxOf(context), parse(CaseIdArgsSchema, args).id),
    restoreCase: (_root, args, context) => {
      const { dump, ownerOrg } = parse(RestoreCaseArgsSchema, args);
      return service.restoreCase(ctxOf(context), dump, ownerOrg);
    },
    bulkRemoveCaseConfigurations: (_root, args, context) =>
      service.bulkRemoveCases(ctxOf(context), parse(CaseIdsArgsSchema, args).ids),
    upsertCaseConfiguration: (_root, args, context) => service.upsertCase(ctxOf(context), parse(UpsertCaseArgsSchema, args)),
    publishTemplate: (_root, args, context) => {
      const { id, published } = parse(PublishTemplateArgsSchema, args);
      return service.publishTemplate(ctxOf(context), id, published);
    },
    setTemplateAppLab: (_root, args, context) => {
      const { id, applab } = parse(SetTemplateAppLabArgsSchema, args);
      return service.setTemplateAppLab(ctxOf(context), id, applab);
    },
    updateEffectChains: (_root, args, context) =>
      service.updateEffectChains(ctxOf(context), parse(UpdateEffectChainsArgsSchema, args).decisions),
    addFavorite: (_root, args, context) => service.setFavorite(ctxOf(context), parse(CaseIdArgsSchema, args).id, true),
    removeFavorite: (_root, args, context) => service.setFavorite(ctxOf(context), parse(CaseIdArgsSchema, args).id, false),
    removeCaseConfiguration: (_root, args, context) => service.removeCase(ctxOf(context), parse(CaseIdArgsSchema, args).id),
    duplicateCaseConfiguration: (_root, args, context) => {
      const { id, newCaseName } = parse(DuplicateCaseArgsSchema, args);
      return service.duplicateCase(ctxOf(context), id, newCaseName);
    },
    saveCaseConfiguration: (_root, args, context) => {
      const { id, document } = parse(SaveCaseArgsSchema, args);
      return service.saveCase(ctxOf(context), id, document);
    },
  },
};

type FormattedError = {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: { code: string; statusCode: number };
};

/** A GraphQL error in the product's terms: AppErrors keep their code and text; others are bad input or hidden. */
function formatError(error: GraphQLError, log: FastifyInstance['log']): FormattedError {
  const original = error.originalError;
  const base = {
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
  };
  if (original instanceof AppError) {
    if (original.statusCode >= 500) log.error({ err: original }, original.message);
    return { message: original.message, ...base, extensions: { code: original.code, statusCode: original.statusCode } };
  }
  const code = (original as { code?: unknown } | undefined)?.code;
  if (isErrorCode(code)) {
    const status = ERROR_CODES[code].status;
    return {
      message: status >= 500 ? ERROR_CODES[code].message : error.message,
      ...base,
      extensions: { code, statusCode: status },
    };
  }
  if (!original || original instanceof GraphQLError) {
    // Parsing, validation and variable coercion: the request itself is wrong.
    return { message: error.message, ...base, extensions: { code: 'VALIDATION_FAILED', statusCode: 400 } };
  }
  log.error({ err: original }, 'GraphQL resolver failed');
  return { message: ERROR_CODES.INTERNAL.message, ...base, extensions: { code: 'INTERNAL', statusCode: 500 } };
}

/** The HTTP status of an answer with errors: 200 when some data came back, else the first error's. */
function statusOf(errors: readonly FormattedError[], hasData: boolean): number {
  if (hasData) return 200;
  return errors[0]?.extensions.statusCode ?? 400;
}

const GraphQLBodySchema = z.object({
  query: z.string().min(1).max(QUERY_MAX_CHARS),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().max(200).nullish(),
});

function sendErrors(reply: FastifyReply, errors: FormattedError[], data: unknown = null) {
  return reply.status(statusOf(errors, data !== null && data !== undefined)).send({ data, errors });
}

/**
 * Whether the operation a request runs changes something (a mutation or subscription). A document
 * that does not parse runs nothing (mercurius answers why); one whose operation cannot be picked
 * counts as a change if any of its operations is one.
 */
function isChangingOperation(query: string, operationName: string | null | undefined): boolean {
  let document: DocumentNode;
  try {
    document = parseDocument(query);
  } catch {
    return false;
  }
  const operation = getOperationAST(document, operationName ?? undefined);
  if (operation) return operation.operation !== OperationTypeNode.QUERY;
  return document.definitions.some(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation !== OperationTypeNode.QUERY,
  );
}

/** Registers mercurius (without its own routes) and the POST route, in the caller's scope. */
export const casesGraphql: FastifyPluginAsync = async (app) => {
  await app.register(mercurius, {
    schema: CASE_SCHEMA,
    resolvers: resolvers as never,
    routes: false,
    // The bounds of decision 0034; introspection maps the API for anyone, so it answers only where
    // the deployment turns it on.
    validationRules: [operationLimitsRule(), ...(app.env.API_INTROSPECTION ? [] : [NoSchemaIntrospectionCustomRule])],
    // One operation per request: batches would multiply the bounds.
    allowBatchedQueries: false,
    jit: 1,
    errorFormatter: (execution) => ({ statusCode: 200, response: execution }),
  });
  const signedIn = app.requirePermission('cases:read');

  // GraphQL reads through POST too: a View-As-User token gets in, and the operation decides below.
  app.post(GRAPHQL_PATH, { preHandler: signedIn, config: { viewAs: 'read' } }, async (request, reply) => {
    const body = GraphQLBodySchema.safeParse(request.body);
    if (!body.success) {
      const issue = body.error.issues[0];
      return sendErrors(reply, [
        {
          message: issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : ERROR_CODES.VALIDATION_FAILED.message,
          extensions: { code: 'VALIDATION_FAILED', statusCode: 400 },
        },
      ]);
    }
    const { query, variables, operationName } = body.data;
    if (isQueryNestedDeeperThan(query, JSON_MAX_DEPTH)) {
      const error = queryTooComplex(`The query is nested more than ${JSON_MAX_DEPTH} levels deep.`);
      return sendErrors(reply, [formatError(error, request.log)]);
    }
    const actor = currentUser(request);
    if (actor.act && isChangingOperation(query, operationName)) {
      const { message, status } = ERROR_CODES.VIEW_AS_READ_ONLY;
      return sendErrors(reply, [{ message, extensions: { code: 'VIEW_AS_READ_ONLY', statusCode: status } }]);
    }
    const context: Context = { actor, ip: request.ip, db: app.db, cache: app.cache };
    let result: ExecutionResult;
    try {
      result = await app.graphql(query, context, variables ?? undefined, operationName ?? undefined);
    } catch (error) {
      const nested = (error as { errors?: unknown }).errors;
      const list = Array.isArray(nested) ? (nested as unknown[]) : [error];
      const errors = list.map((item) => {
        if (item instanceof GraphQLError) return formatError(item, request.log);
        const message = item instanceof Error ? item.message : ERROR_CODES.VALIDATION_FAILED.message;
        return formatError(new GraphQLError(message), request.log);
      });
      return sendErrors(reply, errors);
    }
    if (!result.errors || result.errors.length === 0) return reply.send({ data: result.data });
    const errors = result.errors.map((error) => formatError(error, request.log));
    const data = result.data ?? null;
    const hasData = data !== null && Object.values(data).some((value) => value !== null);
    return reply.status(statusOf(errors, hasData)).send({ data, errors });
  });
};
