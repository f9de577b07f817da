import {
  GraphQLError,
  Kind,
  Lexer,
  parse,
  Source,
  TokenKind,
  getNamedType,
  isObjectType,
  isInterfaceType,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type ParseOptions,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../core/params.ts';

/**
 * What one document may ask for. Tokens bound the parser's work; depth and cost bound the
 * resolvers'. Introspection (`__schema`, `__type`) is left to graphql-js's own introspection
 * depth rule, so standard tooling keeps working.
 */
export const MAX_TOKENS = 2000;
export const MAX_DEPTH = 10;
export const MAX_COST = 10_000;

function tooComplex(message: string, node?: ASTNode): GraphQLError {
  return new GraphQLError(message, { nodes: node, extensions: { code: 'QUERY_TOO_COMPLEX' } });
}

/**
 * graphql-js gives up validating a document whose checks would take too long (500,000 field-pair
 * comparisons to see whether same-named fields merge, 50,000 fragment steps) with a bare
 * "Validation aborted." error. That is a complexity limit: said as one, with what to change.
 */
export function explainAbortedValidation(errors: readonly GraphQLError[]): readonly GraphQLError[] {
  return errors.map((error) =>
    /^Validation aborted\.$/.test(error.message)
      ? tooComplex('The document is too complex to validate: it repeats fields or fragments too many times (graphql-js stops after 500,000 field comparisons). Select each field once.')
      : error,
  );
}

/** graphql-js's parse, refused (before any parsing) for a document of more than MAX_TOKENS tokens. */
export function parseWithinLimits(source: string | Source, options?: ParseOptions): DocumentNode {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) {
    if (++count > MAX_TOKENS) throw tooComplex(`The document has more than ${MAX_TOKENS} tokens.`);
  }
  return parse(source, options);
}

const isIntrospection = (node: FieldNode) => node.name.value === '__schema' || node.name.value === '__type';

/**
 * How many items a field's selection is resolved for: `first` on a list argument (a variable
 * counts as the maximum, since the estimate must not depend on variables), else 1.
 */
function multiplier(node: FieldNode, field: GraphQLField<unknown, unknown> | undefined): number {
  const declared = field?.args.find((a) => a.name === 'first');
  if (!declared) return 1;
  const given = node.arguments?.find((a) => a.name.value === 'first')?.value;
  if (!given || given.kind === Kind.NULL) return PER_PAGE_DEFAULT;
  if (given.kind !== Kind.INT) return PER_PAGE_MAX;
  return Math.min(Math.max(Number(given.value), 1), PER_PAGE_MAX);
}

interface Measure {
  depth: number;
  cost: number;
}

/**
 * Depth and cost of every operation: each field costs 1 plus its selection's cost times its
 * multiplier; depth counts nested fields. Fragments are measured once (a document reusing a
 * fragment many times stays cheap to check) and a fragment cycle counts as nothing (graphql-js
 * reports the cycle itself).
 */
export const limitsRule: ValidationRule = (context: ValidationContext) => {
  const schema = context.getSchema();
  const fragments = new Map<string, Measure | 'measuring'>();

  function fieldOf(parent: GraphQLNamedType | undefined, name: string) {
    return parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
  }

  function measure(set: SelectionSetNode | undefined, parent: GraphQLNamedType | undefined): Measure {
    let depth = 0;
    let cost = 0;
    for (const selection of set?.selections ?? []) {
      let inner: Measure;
      if (selection.kind === Kind.FIELD) {
        if (isIntrospection(selection)) continue;
        const field = fieldOf(parent, selection.name.value);
        const child = measure(selection.selectionSet, field && getNamedType(field.type));
        inner = { depth: 1 + child.depth, cost: 1 + multiplier(selection, field) * child.cost };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        inner = measure(selection.selectionSet, type ?? undefined);
      } else {
        inner = measureFragment(selection.name.value);
      }
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    }
    return { depth, cost };
  }

  function measureFragment(name: string): Measure {
    const known = fragments.get(name);
    if (known === 'measuring') return { depth: 0, cost: 0 };
    if (known) return known;
    const fragment = context.getFragment(name);
    if (!fragment) return { depth: 0, cost: 0 };
    fragments.set(name, 'measuring');
    const measured = measure(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? undefined);
    fragments.set(name, measured);
    return measured;
  }

  return {
    OperationDefinition(node) {
      const root = node.operation === 'query' ? schema.getQueryType() : undefined;
      const { depth, cost } = measure(node.selectionSet, root ?? undefined);
      if (depth > MAX_DEPTH) context.reportError(tooComplex(`The query is ${depth} fields deep; the limit is ${MAX_DEPTH}.`, node));
      else if (cost > MAX_COST) {
        context.reportError(
          tooComplex(`The query costs ${cost}; the limit is ${MAX_COST} (each field costs 1, and a list field multiplies its selection by \`first\`).`, node),
        );
      }
      return false;
    },
  };
};
