/**
 * Reads PostgreSQL's text form of a parse tree (`pg_node_tree`, as pg_rewrite.ev_action
 * holds a view's query): `{NODE :field value ...}` nodes, `(...)` lists, `<>` for null
 * and bare tokens with backslash escapes. Only what view-keys.ts needs is interpreted;
 * everything else is kept as text.
 */

export type NodeValue = string | null | NodeValue[] | TreeNode;
export type TreeNode = { node: string; fields: Map<string, NodeValue> };

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      i += 1;
    } else if ('(){}'.includes(ch)) {
      tokens.push(ch);
      i += 1;
    } else {
      let token = '';
      while (i < text.length && !' \n\t\r(){}'.includes(text[i] as string)) {
        if (text[i] === '\\' && i + 1 < text.length) {
          token += text[i + 1];
          i += 2;
        } else {
          token += text[i];
          i += 1;
        }
      }
      tokens.push(token);
    }
  }
  return tokens;
}

class Reader {
  i = 0;
  constructor(readonly tokens: string[]) {}

  peek(): string | undefined {
    return this.tokens[this.i];
  }

  next(): string {
    const token = this.tokens[this.i];
    if (token === undefined) throw new Error('node tree ends too soon');
    this.i += 1;
    return token;
  }

  value(): NodeValue {
    const token = this.next();
    if (token === '{') return this.node();
    if (token === '(') {
      const items: NodeValue[] = [];
      while (this.peek() !== ')') items.push(this.value());
      this.next();
      return items;
    }
    return token === '<>' ? null : token;
  }

  node(): TreeNode {
    const node: TreeNode = { node: this.next(), fields: new Map() };
    while (this.peek() !== '}') {
      const name = this.next();
      // A constant's value is its length, then its bytes in brackets.
      node.fields.set(name.replace(/^:/, ''), this.value());
      if (this.peek() === '[') while (this.next() !== ']');
    }
    this.next();
    return node;
  }
}

export function parseNodeTree(text: string): NodeValue {
  return new Reader(tokenize(text)).value();
}

export const isNode = (value: NodeValue | undefined, name: string): value is TreeNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && value.node === name;
