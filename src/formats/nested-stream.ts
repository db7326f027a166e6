// Writes keys as nested objects while they stream in, for the nested writers
// (JSON, JavaScript, PHP, YAML with WRITE_NESTED). Given the keys in path
// order (pathSortKey in nested-keys.ts), it writes exactly what unflatten()
// of the same keys gives, holding only the path of open objects:
// - a key's object members are opened when its first descendant arrives and
//   closed when a key outside it arrives (every subtree is contiguous);
// - a leaf that is also a parent keeps its descendants flat next to it, as
//   they arrive right after it;
// - a branch with array items (`t[0]`) is gathered until it ends and then
//   written through unflatten(), since whether it is an array depends on all
//   its items; only such a branch is held.
// Keys out of path order would force an object to be opened twice (a
// duplicate member, lossy on re-import), so they are refused as a bug.
// Without nesting (flat output) keys are written in the order given.
import { isIndexPart, keyParts, MAX_NESTING, pathSortKey, unflatten, type NestedNode } from './nested-keys.js';

/**
 * How a format writes members. `depth` is the number of objects around the
 * member below the root (0: a member of the root object); `first` says
 * whether it is the first member of its object (separators).
 */
export interface NestedStyle<V> {
  /** A member whose value is complete: a key's leaf, or a gathered branch. */
  member(name: string, node: NestedNode<V>, depth: number, first: boolean): string;
  /** Opens a member object; its members follow at depth + 1. */
  open(name: string, depth: number, first: boolean): string;
  /** Closes the object opened at `depth`. */
  close(depth: number): string;
  /** A root member that must not be nested: its keys are written flat at the root. */
  flatBranch?(name: string): boolean;
}

interface OpenObject {
  id: string;
  count: number;
}

export class NestedStream<V> {
  private readonly stack: OpenObject[] = [];
  private rootCount = 0;
  /** A leaf whose descendants are written flat next to it. */
  private flat: { depth: number; parts: string[]; name: string } | undefined;
  /** A branch with array items, held until its last key. */
  private gathering: { depth: number; prefix: string[]; entries: [string, V][] } | undefined;
  private previous: Buffer | undefined;

  constructor(
    private readonly style: NestedStyle<V>,
    private readonly nested: boolean,
  ) {}

  /** Members written into the root object so far. */
  get rootMembers(): number {
    return this.rootCount;
  }

  add(key: string, value: V): string {
    if (!this.nested) return this.member(key, { kind: 'leaf', value }, 0);
    this.checkOrder(key);
    const parts: string[] = [];
    let out = '';
    if (this.gathering) {
      if (keyParts(key, MAX_NESTING, parts) && startsWith(parts, this.gathering.prefix)) {
        this.gathering.entries.push([key, value]);
        return '';
      }
      out += this.flushGathering();
    }
    if (!keyParts(key, MAX_NESTING, parts) || this.style.flatBranch?.(parts[0]!)) {
      this.flat = undefined;
      return out + this.closeTo(0) + this.member(key, { kind: 'leaf', value }, 0);
    }
    if (this.flat) {
      const { depth, parts: parent, name } = this.flat;
      if (parts.length > parent.length && startsWith(parts, parent))
        return out + this.member(name + relativePath(parts, parent.length), { kind: 'leaf', value }, depth);
      this.flat = undefined;
    }
    let common = 0;
    while (common < this.stack.length && common < parts.length - 1 && this.stack[common]!.id === parts[common])
      common++;
    out += this.closeTo(common);
    for (let depth = common; ; depth++) {
      const id = parts[depth]!;
      // Index children sort before members, so an open object never gets one.
      if (isIndexPart(id)) throw new Error(`Key "${key}" reached an array item outside its branch`);
      if (depth === parts.length - 1) {
        this.flat = { depth, parts, name: id };
        return out + this.member(id, { kind: 'leaf', value }, depth);
      }
      if (isIndexPart(parts[depth + 1]!)) {
        this.gathering = { depth, prefix: parts.slice(0, depth + 1), entries: [[key, value]] };
        return out;
      }
      out += this.style.open(id, depth, this.take(depth));
      this.stack.push({ id, count: 0 });
    }
  }

  /** Writes what is held and closes the open objects; the root object stays for the format to close. */
  end(): string {
    return this.flushGathering() + this.closeTo(0);
  }

  private checkOrder(key: string): void {
    const sortKey = pathSortKey(key);
    if (this.previous && Buffer.compare(this.previous, sortKey) >= 0)
      throw new Error(`Keys reached a nested writer out of path order at "${key}"`);
    this.previous = sortKey;
  }

  /** Whether the next member at `depth` is its object's first, counting it. */
  private take(depth: number): boolean {
    if (depth === 0) return this.rootCount++ === 0;
    return this.stack[depth - 1]!.count++ === 0;
  }

  private member(name: string, node: NestedNode<V>, depth: number): string {
    return this.style.member(name, node, depth, this.take(depth));
  }

  private closeTo(depth: number): string {
    let out = '';
    while (this.stack.length > depth) {
      this.stack.pop();
      out += this.style.close(this.stack.length);
    }
    return out;
  }

  private flushGathering(): string {
    const gathering = this.gathering;
    if (!gathering) return '';
    this.gathering = undefined;
    // The branch's ancestors are the open objects, each with one child here: walk down to its parent.
    let node = unflatten(gathering.entries);
    for (let i = 0; i < gathering.depth; i++)
      node = (node as Extract<NestedNode<V>, { kind: 'object' }>).entries[0]![1];
    let out = '';
    for (const [name, child] of (node as Extract<NestedNode<V>, { kind: 'object' }>).entries)
      out += this.member(name, child, gathering.depth);
    return out;
  }
}

function startsWith(parts: readonly string[], prefix: readonly string[]): boolean {
  if (parts.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (parts[i] !== prefix[i]) return false;
  return true;
}

/** The dotted / bracketed name of parts[from..] relative to their ancestor, as unflatten writes flat descendants. */
function relativePath(parts: readonly string[], from: number): string {
  let out = '';
  for (let i = from; i < parts.length; i++) out += isIndexPart(parts[i]!) ? `[${parts[i]!.slice(1)}]` : `.${parts[i]}`;
  return out;
}
