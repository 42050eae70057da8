/**
 * The bounds of one GraphQL request (decision 0034): how deep its text nests, how deep and how many
 * fields it selects, what its answer may cost, how often it asks for one root field, how many
 * mutations it carries, and which fields of a case a list may select. Each refusal is a GraphQL
 * error with the code QUERY_TOO_COMPLEX (400) and a message that says which bound and by how much.
 */
import { CASE_PAGE_SIZE, CASE_PAGE_SIZE_MAX } from '@patientsim/domain/cases/case-list';
import { CASE_BULK_MAX } from '@patientsim/domain/cases/case.schemas';
import {
  type ASTNode,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLError,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  OperationTypeNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  Source,
  TokenKind,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ValidationContext,
} from 'graphql';
import { AppError } from '../../lib/errors.js';
import { TEMPLATE_CASES_MAX } from './cases.repository.js';

export type GraphqlLimits = {
  /** The deepest selection, in fields (the case type is four levels deep at most). */
  maxDepth: number;
  /** The most fields one operation selects, fragments expanded; fragment expansions are bounded alike. */
  maxFields: number;
  /** The most one operation may cost (`measureOperation`). */
  maxCost: number;
  /** How many times one operation may ask for the same root field, under any aliases. */
  maxSameRootField: number;
  /** Mutations per request: each runs on its own, so a request of several could be half done. */
  maxMutations: number;
};

/**
 * The endpoint's bounds. The cost bound lets the most costly request of the web app through (the
 * Templates screen's list of a template library, counted at the 1,000 cases such a library answers
 * at most) and no more than a few pages of the case list beside it (decision 0034 has the figures).
 */
export const GRAPHQL_LIMITS: GraphqlLimits = {
  maxDepth: 7,
  maxFields: 250,
  maxCost: 40_000,
  maxSameRootField: 5,
  maxMutations: 1,
};

/**
 * The fields of a case whose size the case decides, not the page: its access lists, shares and
 * timed access grow with every grant, and the outdated medications and nodes and the searchable
 * text hold up to hundreds of kilobytes. They are answered for one case at a time (the single-case
 * query and the mutations), never for each case of a list.
 */
export const SINGLE_CASE_FIELDS: ReadonlySet<string> = new Set([
  'access',
  'shares',
  'timed_access',
  'outdatedMedications',
  'outdatedEcNodes',
  'searchableText',
]);

/**
 * The most items a list field without a page argument answers, by `Type.field`. Any other list
 * (the lists inside one case, the schema's own in introspection) counts as one item.
 */
const LIST_SIZES: Readonly<Record<string, number>> = {
  'Query.templateCases': TEMPLATE_CASES_MAX,
  'Mutation.updateEffectChains': CASE_BULK_MAX,
};

/** The page a field with a `first` argument answers: a variable may be any page, so the largest. */
function pageSizeOf(node: FieldNode): number {
  const first = node.arguments?.find((argument) => argument.name.value === 'first')?.value;
  if (!first || first.kind === Kind.NULL) return CASE_PAGE_SIZE;
  if (first.kind === Kind.INT) return Math.min(Math.max(Number(first.value), 1), CASE_PAGE_SIZE_MAX);
  return CASE_PAGE_SIZE_MAX;
}

function fieldOf(
  schema: GraphQLSchema,
  parentType: GraphQLNamedType | undefined,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parentType && parentType === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parentType) || isInterfaceType(parentType) ? parentType.getFields()[name] : undefined;
}

export type OperationMeasure = {
  /** Fields selected, fragments expanded. */
  fields: number;
  /** The deepest field, the root fields being at depth 1. */
  depth: number;
  /**
   * Every field counts once per item of the lists around it: a list field with a page argument
   * (`first`) at its page, the others at the most they answer (LIST_SIZES).
   */
  cost: number;
  /** Each root field with how many times it is asked for, under any aliases. */
  rootFields: ReadonlyMap<string, number>;
  /** Fields of SINGLE_CASE_FIELDS selected for the cases of a list. */
  singleCaseFieldsInLists: readonly FieldNode[];
  /**
   * Where the walk stopped because the operation expands beyond the field bound: the other figures
   * are then only what was counted until there.
   */
  cutBy: 'fields' | 'fragments' | null;
};

type FragmentLookup = (name: string) => FragmentDefinitionNode | null | undefined;

/**
 * Measures one operation, fragments expanded and cycles cut; a field or type the schema does not
 * know counts but is not entered (the specified rules report it). The walk stops past
 * `limits.maxFields` fields or fragment expansions, so its work is bounded whatever the document.
 */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: FragmentLookup,
  limits: Pick<GraphqlLimits, 'maxFields'> = GRAPHQL_LIMITS,
): OperationMeasure {
  let fields = 0;
  let expansions = 0;
  let depth = 0;
  let cost = 0;
  let cutBy: OperationMeasure['cutBy'] = null;
  const rootFields = new Map<string, number>();
  const singleCaseFieldsInLists: FieldNode[] = [];

  const visit = (
    selectionSet: SelectionSetNode,
    parentType: GraphQLNamedType | undefined,
    at: { level: number; multiplier: number; isInList: boolean; pageSize: number | null },
    spreads: ReadonlySet<string>,
  ) => {
    for (const selection of selectionSet.selections) {
      if (cutBy) return;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        fields += 1;
        if (fields > limits.maxFields) {
          cutBy = 'fields';
          return;
        }
        cost += at.multiplier;
        depth = Math.max(depth, at.level);
        if (at.level === 1) rootFields.set(name, (rootFields.get(name) ?? 0) + 1);
        if (at.isInList && parentType?.name === 'CaseConfiguration' && SINGLE_CASE_FIELDS.has(name)) {
          singleCaseFieldsInLists.push(selection);
        }
        const field = fieldOf(schema, parentType, name);
        if (!selection.selectionSet || !field) continue;
        const isList = isListType(getNullableType(field.type));
        const size = isList ? (at.pageSize ?? LIST_SIZES[`${parentType?.name}.${name}`] ?? 1) : 1;
        visit(
          selection.selectionSet,
          getNamedType(field.type),
          {
            level: at.level + 1,
            multiplier: at.multiplier * size,
            isInList: at.isInList || isList,
            pageSize: field.args.some((argument) => argument.name === 'first') ? pageSizeOf(selection) : null,
          },
          spreads,
        );
        continue;
      }
      expansions += 1;
      if (expansions > limits.maxFields) {
        cutBy = 'fragments';
        return;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        visit(selection.selectionSet, type ?? undefined, at, spreads);
        continue;
      }
      const name = selection.name.value;
      const fragment = fragments(name);
      // A cycle is reported by the specified rules; it counts nothing here.
      if (!fragment || spreads.has(name)) continue;
      const type = schema.getType(fragment.typeCondition.name.value) ?? undefined;
      visit(fragment.selectionSet, type, at, new Set([...spreads, name]));
    }
  };

  const rootType = schema.getRootType(operation.operation) ?? undefined;
  visit(operation.selectionSet, rootType, { level: 1, multiplier: 1, isInList: false, pageSize: null }, new Set());
  return { fields, depth, cost, rootFields, singleCaseFieldsInLists, cutBy };
}

const numbers = new Intl.NumberFormat('en-US');
const formatNumber = (value: number) => numbers.format(value);

/** What is wrong with an operation under `limits`, each as the message it is refused with. */
export function findViolations(
  operation: OperationDefinitionNode,
  measure: OperationMeasure,
  limits: GraphqlLimits = GRAPHQL_LIMITS,
): Array<{ message: string; node: ASTNode }> {
  // Past a cut every other figure is partial (a count of 62 for 80 aliases): the cut alone is said.
  if (measure.cutBy === 'fields') {
    return [{ message: `The query selects more than ${limits.maxFields} fields.`, node: operation }];
  }
  if (measure.cutBy === 'fragments') {
    return [{ message: `The query expands fragments more than ${limits.maxFields} times.`, node: operation }];
  }
  const violations: Array<{ message: string; node: ASTNode }> = [];
  if (operation.operation === OperationTypeNode.MUTATION) {
    // `__typename` beside a mutation changes nothing.
    const mutations = [...measure.rootFields].reduce((sum, [name, times]) => (name.startsWith('__') ? sum : sum + times), 0);
    if (mutations > limits.maxMutations) {
      const most = limits.maxMutations === 1 ? 'only one' : `at most ${limits.maxMutations}`;
      violations.push({ message: `The request carries ${mutations} mutations; a request may carry ${most}.`, node: operation });
    }
  }
  for (const [name, times] of measure.rootFields) {
    if (times > limits.maxSameRootField) {
      violations.push({
        message: `${name} is asked for ${times} times; a request may ask for one field at most ${limits.maxSameRootField} times.`,
        node: operation,
      });
    }
  }
  if (measure.depth > limits.maxDepth) {
    violations.push({
      message: `The query selects fields ${measure.depth} levels deep; a query may go at most ${limits.maxDepth} levels deep.`,
      node: operation,
    });
  }
  const reported = new Set<string>();
  for (const node of measure.singleCaseFieldsInLists) {
    if (reported.has(node.name.value)) continue;
    reported.add(node.name.value);
    violations.push({
      message: `${node.name.value} is answered for one case at a time (caseConfiguration), not in a list.`,
      node,
    });
  }
  if (measure.cost > limits.maxCost) {
    violations.push({
      message:
        `The query costs ${formatNumber(measure.cost)} (each field counts once per item of the lists it is in); ` +
        `a request may cost at most ${formatNumber(limits.maxCost)}.`,
      node: operation,
    });
  }
  return violations;
}

/** A refusal in the product's terms: the endpoint answers it with its code and status. */
export function queryTooComplex(message: string, node?: ASTNode): GraphQLError {
  return new GraphQLError(message, {
    ...(node ? { nodes: [node] } : {}),
    originalError: new AppError('QUERY_TOO_COMPLEX', { message }),
  });
}

/** The validation rule that holds every operation of a document to `limits`. */
export function operationLimitsRule(limits: GraphqlLimits = GRAPHQL_LIMITS) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const measure = measureOperation(context.getSchema(), operation, (name) => context.getFragment(name), limits);
      for (const { message, node } of findViolations(operation, measure, limits))
        context.reportError(queryTooComplex(message, node));
    },
  });
}

/**
 * Whether a query's text nests braces, brackets and parentheses deeper than `max`, read token by
 * token (strings and comments do not count) before it is parsed: graphql's parser recurses once a
 * level, and a text nested thousands deep exhausts its stack. Text the lexer refuses stops the
 * count there; the parser then reports it.
 */
export function isQueryNestedDeeperThan(query: string, max: number): boolean {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
        depth += 1;
        if (depth > max) return true;
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        depth -= 1;
      }
    }
  } catch {
    return false;
  }
  return false;
}
