// Field rules shared by the content model (languages, customers, keys,
// translations): the contract's length limits and the shape of identifiers.
// Lengths count Unicode characters (code points), as a translator would.
import { badRequest } from '../../errors.js';

export const LIMITS = {
  languageKey: 20,
  languageName: 200,
  customerKey: 40,
  customerDescription: 255,
  key: 500,
  namespace: 128,
  description: 500,
  codeDescription: 500,
  tag: 100,
  tags: 100,
} as const;

export function charCount(value: string): number {
  let n = value.length;
  // Each surrogate pair is one character but two UTF-16 units.
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/**
 * What a message calls the checked value. A function is called only when
 * there is a problem: a file of a million cells checks each one, and naming
 * each up front cost more than the checks.
 */
export type FieldName = string | (() => string);

export const nameOf = (field: FieldName): string => (typeof field === 'string' ? field : field());

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the database cannot store as given: PostgreSQL text cannot hold
 * U+0000, and half of a UTF-16 surrogate pair (an escape such as \uD800 in
 * JSON) has no UTF-8 bytes, so it would silently become U+FFFD.
 */
export function storableTextProblem(value: string, field: FieldName): string | undefined {
  if (value.includes('\u0000')) return `${nameOf(field)} contains a NUL character (U+0000), which cannot be stored`;
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate)
    return `${nameOf(field)} contains half of a UTF-16 surrogate pair (U+${surrogate[0].charCodeAt(0).toString(16).toUpperCase()}), which is not a character`;
  return undefined;
}

/** The problem with a string field, or undefined when it is fine. */
export function lengthProblem(value: string, field: FieldName, max: number): string | undefined {
  return charCount(value) > max ? `${nameOf(field)} must have at most ${max} characters` : undefined;
}

export function checkLength(value: string, field: string, max: number): string {
  const problem = lengthProblem(value, field, max);
  if (problem) throw badRequest(problem);
  return value;
}

/** A string field that may be absent (undefined or null → undefined). */
export function optionalText(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return checkLength(value, field, max);
}

/**
 * Language and customer keys appear in published file paths, so they are
 * non-empty and hold no whitespace, slash or backslash.
 */
export function identifierProblem(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return `${field} is required`;
  if (typeof value !== 'string') return `${field} must be a string`;
  if (/[\s/\\]/.test(value)) return `${field} must not contain whitespace, '/' or '\\'; got '${value}'`;
  return lengthProblem(value, field, max);
}

export function identifier(value: unknown, field: string, max: number): string {
  const problem = identifierProblem(value, field, max);
  if (problem) throw badRequest(problem);
  return value as string;
}
