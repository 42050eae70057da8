import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditActionLabel } from '@patientsim/domain/audit/audit.schemas';

const SERVER_SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WRITERS = new Set(['audit', 'auditAs']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

type Found = { codes: Set<string>; unreadable: string[]; directWrites: string[] };

/** The string literals an `action:` initializer can evaluate to (through `a ? 'x' : 'y'`), or null for anything else. */
function literalsOf(node: ts.Expression): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return literalsOf(node.expression);
  if (ts.isConditionalExpression(node)) {
    const [whenTrue, whenFalse] = [literalsOf(node.whenTrue), literalsOf(node.whenFalse)];
    return whenTrue && whenFalse ? [...whenTrue, ...whenFalse] : null;
  }
  return null;
}

/** Every action code the server's source passes to the audit writers, read from its syntax. */
function findWrittenActions(): Found {
  const found: Found = { codes: new Set(), unreadable: [], directWrites: [] };
  for (const file of sourceFiles(SERVER_SOURCE)) {
    const text = readFileSync(file, 'utf8');
    const isAuditWriter = file === path.join(SERVER_SOURCE, 'lib', 'audit.ts');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) =>
      `${path.relative(SERVER_SOURCE, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isIdentifier(callee) && WRITERS.has(callee.text)) {
          // The entry is the last object literal: auditAs takes the actor before it.
          const entry = node.arguments.findLast(ts.isObjectLiteralExpression);
          const action = entry?.properties.find(
            (property): property is ts.PropertyAssignment =>
              ts.isPropertyAssignment(property) && property.name.getText(source) === 'action',
          );
          // The writers pass their caller's entry on (`{ ...entry, actorId }`): the code is the caller's.
          const isPassedOn = !action && isAuditWriter && entry?.properties.some(ts.isSpreadAssignment);
          if (entry && !isPassedOn) {
            const codes = action ? literalsOf(action.initializer) : null;
            if (codes) for (const code of codes) found.codes.add(code);
            else found.unreadable.push(where(node));
          }
        }
        // Any other insert into the trail would write codes this test cannot see.
        if (
          ts.isPropertyAccessExpression(callee) &&
          callee.name.text === 'insert' &&
          node.arguments[0]?.getText(source) === 'auditEvent' &&
          !isAuditWriter
        ) {
          found.directWrites.push(where(node));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('audit action labels', () => {
  const found = findWrittenActions();

  it('finds the codes the server writes, each written as a literal through the audit writers', () => {
    expect(found.unreadable).toEqual([]);
    expect(found.directWrites).toEqual([]);
    // The scan sees the writes it must: a scan that found nothing would prove nothing.
    expect(found.codes).toContain('case.ec-update');
    expect(found.codes).toContain('invitation.dismiss');
    expect(found.codes.size).toBeGreaterThan(30);
  });

  it('has a readable label for every code the server writes', () => {
    const unlabelled = [...found.codes].filter((code) => !Object.hasOwn(AUDIT_ACTION_LABELS, code));
    expect(unlabelled).toEqual([]);
  });

  it('labels no code that the server no longer writes (the action filter offers only real ones)', () => {
    expect(AUDIT_ACTIONS.filter((code) => !found.codes.has(code))).toEqual([]);
  });

  it('gives every code its own label, none of them the raw code', () => {
    const labels = AUDIT_ACTIONS.map(auditActionLabel);
    expect(new Set(labels).size).toBe(labels.length);
    for (const code of AUDIT_ACTIONS) expect(auditActionLabel(code)).not.toBe(code);
    expect(auditActionLabel('case.ec-update')).toBe('Answered effect chain update');
  });

  it('shows a code it does not know, from older events, as recorded', () => {
    expect(auditActionLabel('user.retired-action')).toBe('user.retired-action');
  });
});
