// Reads the translations out of a JavaScript (or TypeScript) locale module
// WITHOUT running it: @babel/parser builds the syntax tree, and a small static
// evaluator walks the module's top-level statements for the shapes locale
// files use.
//
// Understood (at the top level of the module only):
//   export default <value>            module.exports = <value>     exports.x = <value>
//   export { name as default }        export const name = <value>
//   const|let|var name [: Type] = <value>, ...        name.a.b = <value>   name['a'] = <value>
// Values: object literals (identifier, string, number and ['string'] keys,
// shorthand `{ name }`, `...spread` of a known object), arrays, strings,
// templates without ${}, string concatenation ('a' + 'b'), numbers,
// true/false (imported as their text), null (no translation), references to
// names declared above (`module.exports = ru_RU`, `ru_RU.strings`),
// Object.freeze(<value>), and TypeScript `as …` / `satisfies …` / `!`.
// Everything else where a value is expected (functions, calls, templates with
// ${…}, other expressions, methods, computed names) is SKIPPED: the member is
// left out and listed in `skipped` with its line and the reason. Other
// statements are stepped over. The module's value must be an object literal,
// else FormatError. A syntax error anywhere is a FormatError with its position
// (the module would not load in an app either).
//
// Comments directly above a member (own line, no blank line between) become its
// description: `// text` lines are joined with newlines, `/* … */` is trimmed.
//
// Safety: nothing is executed; literals nest at most 64 levels; references and
// spreads are budgeted so a few lines cannot expand into billions of values; a
// module nested too deeply for the parser's recursion is refused, not crashed on.
import type * as babel from '@babel/parser';
import type { ParseResult } from '@babel/parser';
import type * as t from '@babel/types';
import { lazyRequire } from '../lazy-module.js';
import { FormatError } from './model.js';
import { MAX_NESTING } from './nested-keys.js';

// @babel/parser is loaded when a JavaScript file is first read (src/lazy-module.ts).
const babelParser = lazyRequire<typeof babel>('@babel/parser');

/** A translation value; `value` null means "no translation". */
export class JsLeaf {
  constructor(
    readonly value: string | null,
    readonly description?: string,
  ) {}
}
export type JsObject = Map<string, JsValue>;
export type JsArray = (JsValue | undefined)[];
export type JsValue = JsLeaf | JsObject | JsArray;

export interface SkippedValue {
  /** Where the value was, as written in the module (`ru_RU.pluralize`). */
  path: string;
  line: number;
  column: number;
  reason: string;
}

export interface JsModule {
  /** The value of `export default` or `module.exports` (see `exported`). */
  exported(prefer: 'default' | 'commonjs'): JsObject;
  skipped: SkippedValue[];
  /** A bound for how many values the module can hold (its length in characters). */
  valueBound: number;
}

/** Why a value is not read: it is reported and left out. */
class Skip {
  constructor(readonly reason: string) {}
}

const position = (node: t.Node) => ({ line: node.loc!.start.line, column: node.loc!.start.column + 1 });

function parseModule(text: string): ParseResult<t.File> {
  let ast: ParseResult<t.File>;
  try {
    ast = babelParser().parse(text, {
      sourceType: 'unambiguous',
      plugins: ['typescript'],
      // Recoverable mistakes are collected instead of thrown; any is still refused below.
      errorRecovery: true,
      allowReturnOutsideFunction: true,
    });
  } catch (error) {
    throw syntaxError(error);
  }
  if (ast.errors?.length) throw syntaxError(ast.errors[0]);
  return ast;
}

function syntaxError(error: unknown): FormatError {
  // The parser is recursive descent: code nested tens of thousands of levels deep exhausts the stack.
  if (error instanceof RangeError) return new FormatError('The JavaScript file nests code too deeply to read');
  const e = error as { message?: string; loc?: { line: number; column: number } };
  const message = (e.message ?? String(error)).replace(/\s*\(\d+:\d+\)$/, '');
  return new FormatError(
    `JavaScript syntax error: ${message}`,
    e.loc ? { line: e.loc.line, column: e.loc.column + 1 } : undefined,
  );
}

class ModuleReader {
  readonly skipped: SkippedValue[] = [];
  private readonly bindings = new Map<string, JsValue>();
  private readonly exportsObject: JsObject = new Map();
  private readonly moduleObject: JsObject = new Map([['exports', this.exportsObject]]);
  private defaultExport?: { value: JsValue | Skip; node: t.Node };
  /** Where module.exports (or a member of it) was assigned; skip: why `module.exports = …` was not read. */
  private commonjs?: { node: t.Node; skip?: Skip };
  /** Members copied by `...spread`: bounded like flatten, so repeated spreads cannot cost quadratic time. */
  private copyBudget: number;
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    this.copyBudget = text.length * 8 + 1024;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    this.bindings.set('module', this.moduleObject);
    this.bindings.set('exports', this.exportsObject);
  }

  read(program: t.Program): void {
    for (const statement of program.body) this.statement(statement);
  }

  private statement(node: t.Statement): void {
    switch (node.type) {
      case 'ExportDefaultDeclaration': {
        const d = node.declaration;
        const value =
          d.type === 'ObjectExpression' || isExpression(d)
            ? this.value(d as t.Expression, '', 1)
            : new Skip(describe(d));
        this.defaultExport = { value, node: d };
        if (value instanceof Skip) this.report('export default', d, value.reason);
        return;
      }
      case 'ExportNamedDeclaration':
        if (node.declaration?.type === 'VariableDeclaration') return this.declaration(node.declaration);
        for (const s of node.specifiers) {
          if (s.type !== 'ExportSpecifier' || exportedName(s.exported) !== 'default') continue;
          const value = this.bindings.get(s.local.name);
          if (value === undefined)
            this.report('export default', s.local, `a name that is not declared above (${s.local.name})`);
          this.defaultExport = {
            value: value ?? new Skip(`a name that is not declared above (${s.local.name})`),
            node: s.local,
          };
        }
        return;
      case 'VariableDeclaration':
        return this.declaration(node);
      case 'ExpressionStatement':
        if (node.expression.type === 'AssignmentExpression' && node.expression.operator === '=')
          this.assignment(node.expression);
        return;
      default:
        // Imports, functions, conditionals …: stepped over.
        return;
    }
  }

  private declaration(node: t.VariableDeclaration): void {
    for (const d of node.declarations) {
      if (d.id.type !== 'Identifier') continue;
      const name = d.id.name;
      const value = d.init ? this.value(d.init, name, 1) : undefined;
      if (value instanceof Skip) this.report(name, d.init!, value.reason);
      if (value === undefined || value instanceof Skip) this.bindings.delete(name);
      else this.bindings.set(name, value);
    }
  }

  /** `name.a['b'] = value` where `name` is known (module, exports, or declared above). */
  private assignment(node: t.AssignmentExpression): void {
    const chain = memberChain(node.left);
    if (!chain) return;
    const [root, ...props] = chain;
    const target = this.bindings.get(root!);
    if (target === undefined) return;
    const path = chain.join('.');
    if (props.length === 0) {
      const value = this.value(node.right, path, 1);
      if (value instanceof Skip) {
        this.report(path, node.right, value.reason);
        this.bindings.delete(root!);
      } else this.bindings.set(root!, value);
      return;
    }
    let obj: JsValue | undefined = target;
    for (const prop of props.slice(0, -1)) obj = obj instanceof Map ? obj.get(prop) : undefined;
    if (!(obj instanceof Map)) return;
    const last = props[props.length - 1]!;
    const value = this.value(node.right, path, 1);
    if (root === 'module' && props.length === 1 && last === 'exports')
      this.commonjs = { node: node.right, skip: value instanceof Skip ? value : undefined };
    else if (root === 'exports' || (root === 'module' && props[0] === 'exports'))
      this.commonjs ??= { node: node.right };
    if (value instanceof Skip) {
      this.report(path, node.right, value.reason);
      obj.delete(last);
    } else obj.set(last, value);
  }

  /** The value of an expression, or why it is skipped (the caller reports it). */
  private value(node: t.Expression | t.PatternLike, path: string, depth: number): JsValue | Skip {
    if (depth > MAX_NESTING)
      throw new FormatError(`Values are nested deeper than ${MAX_NESTING} levels`, position(node));
    switch (node.type) {
      case 'StringLiteral':
        return new JsLeaf(node.value);
      case 'TemplateLiteral':
        if (node.expressions.length > 0) return new Skip('a template literal with ${…}');
        return new JsLeaf(node.quasis[0]!.value.cooked ?? node.quasis[0]!.value.raw);
      case 'NumericLiteral':
        return new JsLeaf(String(node.value));
      case 'BigIntLiteral':
        return new JsLeaf(BigInt(node.value).toString());
      case 'BooleanLiteral':
        return new JsLeaf(String(node.value));
      case 'NullLiteral':
        return new JsLeaf(null);
      case 'UnaryExpression':
        if ((node.operator === '-' || node.operator === '+') && node.argument.type === 'NumericLiteral') {
          const n = String(node.argument.value);
          return new JsLeaf(node.operator === '+' || n === '0' ? n : `-${n}`);
        }
        return new Skip('an expression that is not a literal');
      case 'BinaryExpression':
        return this.concatenation(node, path, depth);
      case 'ObjectExpression':
        return this.object(node, path, depth);
      case 'ArrayExpression':
        return this.array(node, path, depth);
      case 'Identifier':
        if (node.name === 'undefined') return new Skip('undefined');
        return this.bindings.get(node.name) ?? new Skip(`a name that is not declared above (${node.name})`);
      case 'MemberExpression': {
        const chain = memberChain(node);
        let value: JsValue | undefined = chain ? this.bindings.get(chain[0]!) : undefined;
        for (const prop of chain?.slice(1) ?? []) value = value instanceof Map ? value.get(prop) : undefined;
        return value ?? new Skip('an expression that is not a literal');
      }
      case 'CallExpression':
        if (isObjectFreeze(node) && node.arguments.length === 1 && node.arguments[0]!.type !== 'SpreadElement') {
          return this.value(node.arguments[0] as t.Expression, path, depth + 1);
        }
        return new Skip('a function call');
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'ParenthesizedExpression':
        return this.value(node.expression, path, depth + 1);
      default:
        return new Skip(describe(node));
    }
  }

  /**
   * 'a' + 'b' + … (long texts split over lines): strings, with numbers after
   * the first string. The chain is walked in a loop, so its length is not
   * nesting.
   */
  private concatenation(node: t.BinaryExpression, path: string, depth: number): JsValue | Skip {
    const operands: t.Node[] = [];
    let current: t.Node = node;
    while (current.type === 'BinaryExpression' && current.operator === '+') {
      operands.unshift(current.right);
      current = current.left;
    }
    operands.unshift(current);
    if (current === node || !isText(operands[0]!) || !operands.every(isTextOrNumber))
      return new Skip('an expression that is not a literal');
    let text = '';
    for (const operand of operands) {
      const value = this.value(operand as t.Expression, path, depth + 1);
      if (!(value instanceof JsLeaf) || value.value === null) return new Skip('an expression that is not a literal');
      text += value.value;
    }
    return new JsLeaf(text);
  }

  private object(node: t.ObjectExpression, path: string, depth: number): JsObject {
    const obj: JsObject = new Map();
    for (const member of node.properties) {
      if (member.type === 'SpreadElement') {
        const spread = this.value(member.argument, `${path}...`, depth + 1);
        if (spread instanceof Map) {
          this.copyBudget -= spread.size;
          if (this.copyBudget < 0)
            throw new FormatError('The file copies objects with ... too often', position(member));
          for (const [name, v] of spread) obj.set(name, v);
        } else
          this.report(
            `${path}...`,
            member,
            spread instanceof Skip ? spread.reason : 'a spread of something that is not an object',
          );
        continue;
      }
      const name = propertyName(member);
      const childPath = path === '' ? (name ?? '[…]') : `${path}.${name ?? '[…]'}`;
      if (name === undefined) {
        this.report(childPath, member, member.type === 'ObjectMethod' ? 'a method' : 'a computed property name');
        continue;
      }
      if (member.type === 'ObjectMethod') {
        this.report(childPath, member, 'a method');
        continue;
      }
      const value = this.value(member.value as t.Expression, childPath, depth + 1);
      if (value instanceof Skip) {
        this.report(childPath, member.shorthand ? member.key : member.value, value.reason);
        obj.delete(name);
      } else obj.set(name, this.described(value, member));
    }
    return obj;
  }

  private array(node: t.ArrayExpression, path: string, depth: number): JsArray {
    return node.elements.map((element, index): JsValue | undefined => {
      if (element === null) return undefined;
      const itemPath = `${path}[${index}]`;
      if (element.type === 'SpreadElement') {
        this.report(itemPath, element, 'a spread inside an array');
        return undefined;
      }
      const value = this.value(element, itemPath, depth + 1);
      if (value instanceof Skip) {
        this.report(itemPath, element, value.reason);
        return undefined;
      }
      return this.described(value, element);
    });
  }

  /** A leaf written right here gets the comments above `at` as its description (a copy, so shared leaves are untouched). */
  private described(value: JsValue, at: t.Node): JsValue {
    if (!(value instanceof JsLeaf)) return value;
    const description = this.descriptionAbove(at);
    return description === undefined ? value : new JsLeaf(value.value, description);
  }

  private descriptionAbove(at: t.Node): string | undefined {
    const comments = at.leadingComments;
    if (!comments?.length) return undefined;
    const texts: string[] = [];
    let nextLine = at.loc!.start.line;
    for (let i = comments.length - 1; i >= 0; i--) {
      const c = comments[i]!;
      if (!this.ownLine(c) || c.loc!.end.line < nextLine - 1) break;
      texts.unshift(commentText(c));
      nextLine = c.loc!.start.line;
    }
    return texts.length ? texts.join('\n') : undefined;
  }

  /** Nothing but whitespace between the start of the comment's line and the comment. */
  private ownLine(c: t.Comment): boolean {
    const lineStart = this.lineStarts[c.loc!.start.line - 1] ?? 0;
    return this.text.slice(lineStart, c.start!).trim() === '';
  }

  private report(path: string, at: t.Node, reason: string): void {
    this.skipped.push({ path: path || 'export default', ...position(at), reason });
  }

  exported(prefer: 'default' | 'commonjs'): JsObject {
    const candidates = {
      default: this.defaultExport && {
        what: 'The default export',
        node: this.defaultExport.node,
        value: this.defaultExport.value,
      },
      // The value of module.exports after every statement (exports.x = … fills the object it starts as).
      commonjs: this.commonjs && {
        what: 'module.exports',
        node: this.commonjs.node,
        value: this.moduleObject.get('exports') ?? this.commonjs.skip!,
      },
    };
    const found =
      prefer === 'default' ? (candidates.default ?? candidates.commonjs) : (candidates.commonjs ?? candidates.default);
    if (!found) throw new FormatError('No `export default {…}` or `module.exports = {…}` found in the JavaScript file');
    const { value } = found;
    if (value instanceof Map) return value;
    const description = value instanceof Skip ? value.reason : value instanceof JsLeaf ? 'a single text' : 'an array';
    throw new FormatError(
      `${found.what} must be an object literal of translations, found ${description}`,
      position(found.node),
    );
  }
}

function isExpression(node: t.Node): node is t.Expression {
  return !/Declaration$/.test(node.type);
}

function exportedName(node: t.Identifier | t.StringLiteral): string {
  return node.type === 'Identifier' ? node.name : node.value;
}

const isText = (node: t.Node) =>
  node.type === 'StringLiteral' || (node.type === 'TemplateLiteral' && node.expressions.length === 0);
const isTextOrNumber = (node: t.Node) => isText(node) || node.type === 'NumericLiteral';

function isObjectFreeze(node: t.CallExpression): boolean {
  const callee = node.callee;
  return (
    callee.type === 'MemberExpression' &&
    !callee.computed &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Object' &&
    callee.property.type === 'Identifier' &&
    callee.property.name === 'freeze'
  );
}

/** `a.b['c']` as ['a', 'b', 'c']; undefined for anything else (computed from code, calls …). */
function memberChain(node: t.Node): string[] | undefined {
  const props: string[] = [];
  let current: t.Node = node;
  while (current.type === 'MemberExpression') {
    const p: t.Node = current.property;
    if (!current.computed && p.type === 'Identifier') props.unshift(p.name);
    else if (current.computed && p.type === 'StringLiteral') props.unshift(p.value);
    else if (current.computed && p.type === 'NumericLiteral') props.unshift(String(p.value));
    else return undefined;
    current = current.object;
  }
  return current.type === 'Identifier' ? [current.name, ...props] : undefined;
}

/** The name of a property: identifier, string or number keys and ['string']; undefined when computed from code. */
function propertyName(member: t.ObjectProperty | t.ObjectMethod): string | undefined {
  const key = member.key;
  if (member.computed) {
    if (key.type === 'StringLiteral') return key.value;
    if (key.type === 'NumericLiteral') return String(key.value);
    return undefined;
  }
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  if (key.type === 'NumericLiteral') return String(key.value);
  if (key.type === 'BigIntLiteral') return BigInt(key.value).toString();
  return undefined;
}

/** What a value that is not read is, for the skipped list. */
function describe(node: t.Node): string {
  switch (node.type) {
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'FunctionDeclaration':
    case 'ClassExpression':
    case 'ClassDeclaration':
      return 'a function';
    case 'CallExpression':
    case 'NewExpression':
    case 'OptionalCallExpression':
      return 'a function call';
    case 'TemplateLiteral':
    case 'TaggedTemplateExpression':
      return 'a template literal with ${…}';
    default:
      return 'an expression that is not a literal';
  }
}

function commentText(c: t.Comment): string {
  if (c.type === 'CommentLine') return c.value.startsWith(' ') ? c.value.slice(1) : c.value;
  // /** JSDoc-style */ blocks: drop the leading `*` of each line.
  return c.value
    .replace(/^\*/, '')
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => line.replace(/^\s*\*? ?/, ''))
    .join('\n')
    .trim();
}

/** Parses a module and evaluates its top-level statements (see the rules above). */
export function readJsModule(text: string): JsModule {
  const ast = parseModule(text);
  const reader = new ModuleReader(text);
  reader.read(ast.program);
  return { exported: (prefer) => reader.exported(prefer), skipped: reader.skipped, valueBound: text.length };
}
