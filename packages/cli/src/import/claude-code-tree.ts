/**
 * The conversation path of a Claude Code session. Every line with a `uuid` is a node
 * of one tree by `parentUuid` (a compaction boundary links on through
 * `logicalParentUuid`). Conversation lines (user, assistant, compaction boundaries,
 * attachments the model read) make the path; the other lines with a uuid (hook and
 * tool `progress`, hook notices, `system` status lines) are links of the chain only,
 * attached to nothing: a conversation line whose parent chain runs through them goes
 * on from the conversation line written just before it. That is where the session
 * went on: CLI 2.1.7x writes a tool call's hook `progress` lines late, parented to
 * the assistant line that made the call, and the conversation continues from the
 * last of them, so following the chain would skip everything written in between. A
 * real branch (a rewind, a resumed fork) is kept: when the recorded usage of the
 * next call is smaller than the context the line before them ended with, the
 * session did not go on from there, and the chain is followed.
 */
import type { DropLog } from './import-result.js';

/** A line of the tree: conversation lines carry their parsed entry. */
export interface TreeLine<T> {
  uuid: string;
  parentUuid?: string | null;
  logicalParentUuid?: string | null;
  isSidechain?: boolean;
  type: string;
  line: number;
  /** The parsed conversation line; undefined for bookkeeping lines. */
  entry?: T;
  /** The line's message content as JSON, to compare a repeated uuid's lines. */
  content?: string;
  /** A compaction boundary: the context after it starts at its summary. */
  boundary?: boolean;
  /** An assistant line's recorded usage: the input it was sent, and that plus its output. */
  usage?: { input: number; after: number };
  /** Why a link line (no entry) is not sent to the model, when its type alone does not say. */
  dropped?: { what: string; why: string };
}

/** Why bookkeeping lines (with or without a uuid) are not sent to the model. */
export const bookkeepingReasons: Readonly<Record<string, string>> = {
  summary: 'the session title shown in the picker, never sent to the model',
  'file-history-snapshot': 'file backups for undo, never sent to the model',
  'queue-operation': 'the input queue of the terminal, never sent to the model',
  progress: 'hook and tool progress shown in the terminal, never sent to the model',
  'custom-title': 'a title the person gave the session, shown in the picker, never sent to the model',
  'ai-title': 'a title Claude Code generated for the picker, never sent to the model',
  'last-prompt': 'a copy of the last prompt for the picker; the prompt itself is a user line',
  mode: 'the terminal mode (normal, plan), never sent to the model as text',
  'permission-mode': 'the permission mode of the terminal, never sent to the model as text',
  'pr-link': 'a pull request the session opened, shown in the terminal, never sent to the model',
  'frame-link': 'a link to a scratch file shown in the terminal, never sent to the model',
  'agent-name': 'the name of a sub-agent shown in the terminal, never sent to the model',
};

/**
 * The conversation lines from the root to the last conversation line, in order.
 * Lines off the path are reported: sub-agent lines and left branches as ordinary
 * drops; conversation lines cut off by a parent missing from the file, and a
 * repeated uuid whose content differs, as lost content.
 */
export function conversationPath<T>(lines: readonly TreeLine<T>[], drops: DropLog): T[] {
  const conversation = lines.filter((line) => line.entry !== undefined);
  const sidechainFile = conversation.length > 0 && conversation.every((line) => line.isSidechain === true);
  const byId = uniqueLines(lines, drops);
  const parents = resolveParents(lines, byId);
  const leaf = conversation.findLast((line) => (line.isSidechain === true) === sidechainFile);
  const onPath = new Set<TreeLine<T>>();
  let top: TreeLine<T> | undefined;
  let missingParent: string | undefined;
  let namedAt: number | undefined;
  for (let node = leaf; node && !onPath.has(node);) {
    onPath.add(node);
    top = node;
    const parent = parents.get(node);
    node = parent?.line;
    if (parent?.missing !== undefined) [missingParent, namedAt] = [parent.missing, parent.namedAt];
  }
  let cutOff = 0;
  for (const line of lines) {
    if (onPath.has(line) || !byId.has(line.uuid) || byId.get(line.uuid) !== line) continue;
    if (reportOffPath(line, { sidechainFile, top, missingParent }, drops)) cutOff += 1;
  }
  const at = namedAt ?? top?.line ?? 0;
  if (missingParent !== undefined && top?.boundary === true) {
    // A file that begins at a compaction (the session went on in a new file): the
    // model's context starts at the summary that follows, so nothing of it is missing.
    drops.drop('history summarised before the file', `line ${at} is a compaction boundary whose parent ${missingParent} is in an earlier file; the context starts at its summary`, at);
  } else if (missingParent !== undefined && top && cutOff === 0) {
    // Nothing of the file lies before the break: the session began before this file
    // (a resumed session's new file, or a slice of one), and its history is elsewhere.
    drops.dropContent(
      'history from before the file',
      `line ${at}, at the start of the conversation path, names parent ${missingParent}, which is not in the file: the session began before this file`,
      at,
    );
  }
  return [...onPath].reverse().flatMap((line) => (line.entry === undefined ? [] : [line.entry]));
}

interface Parent<T> {
  line?: TreeLine<T>;
  /** The uuid the chain names that is not in the file, and the line that names it. */
  missing?: string;
  namedAt?: number;
}

/**
 * Each conversation line's conversation parent. A chain through link lines goes on
 * from the conversation line written just before (see the file's comment), unless that line is not below the chain's own conversation ancestor or
 * the next call's recorded input shows the session did not go on from it.
 */
function resolveParents<T>(lines: readonly TreeLine<T>[], byId: ReadonlyMap<string, TreeLine<T>>): Map<TreeLine<T>, Parent<T>> {
  const parents = new Map<TreeLine<T>, Parent<T>>();
  const index = new Map(lines.map((line, position) => [line, position]));
  for (const line of lines) {
    if (!line.entry || byId.get(line.uuid) !== line) continue;
    const first = parentId(line);
    if (first === undefined) {
      parents.set(line, {});
      continue;
    }
    let node = byId.get(first);
    const crossed = node && !node.entry ? node : undefined;
    const seen = new Set<TreeLine<T>>();
    let missing = node ? undefined : { missing: first, namedAt: line.line };
    while (node && !node.entry && !seen.has(node)) {
      seen.add(node);
      const next = parentId(node);
      missing = next !== undefined && !byId.has(next) ? { missing: next, namedAt: node.line } : undefined;
      node = next === undefined ? undefined : byId.get(next);
    }
    const chain: Parent<T> = node?.entry ? { line: node } : (missing ?? {});
    const before = crossed ? lineBefore(lines, index.get(line) ?? 0, line) : undefined;
    parents.set(line, before && before !== chain.line && wentOnFrom(before, chain.line, line, lines, parents) ? { line: before } : chain);
  }
  return parents;
}

function parentId(line: TreeLine<unknown>): string | undefined {
  return line.parentUuid ?? line.logicalParentUuid ?? undefined;
}

/** The last conversation line (of the same conversation) written before position `end`. */
function lineBefore<T>(lines: readonly TreeLine<T>[], end: number, of: TreeLine<T>): TreeLine<T> | undefined {
  for (let position = end - 1; position >= 0; position -= 1) {
    const line = lines[position]!;
    if (line.entry && line !== of && (line.isSidechain === true) === (of.isSidechain === true)) return line;
  }
  return undefined;
}

/**
 * Whether the session went on from `before` (written just before the link lines)
 * rather than from `ancestor` (where the chain leads): `before` must lie below
 * `ancestor`, and the first call after `line` must have been sent at least the
 * context the last call up to `before` ended with (less 10%, for what a cache
 * counts differently), when both are recorded.
 */
function wentOnFrom<T>(
  before: TreeLine<T>,
  ancestor: TreeLine<T> | undefined,
  line: TreeLine<T>,
  lines: readonly TreeLine<T>[],
  parents: ReadonlyMap<TreeLine<T>, Parent<T>>,
): boolean {
  let below = ancestor === undefined;
  const seen = new Set<TreeLine<T>>();
  for (let node: TreeLine<T> | undefined = before; node && !below && !seen.has(node); node = parents.get(node)?.line) {
    seen.add(node);
    below = node === ancestor;
  }
  if (!below) return false;
  const sameSide = (other: TreeLine<T>) => (other.isSidechain === true) === (line.isSidechain === true);
  const next = lines.slice(lines.indexOf(line)).find((other) => other.usage && sameSide(other))?.usage?.input;
  const ended = endedWith(before, parents);
  return ended === undefined || next === undefined || next >= 0.9 * ended;
}

/** The context the last call on the path up to `line` ended with; undefined past a compaction or without usage. */
function endedWith<T>(line: TreeLine<T>, parents: ReadonlyMap<TreeLine<T>, Parent<T>>): number | undefined {
  const seen = new Set<TreeLine<T>>();
  for (let node: TreeLine<T> | undefined = line; node && !seen.has(node); node = parents.get(node)?.line) {
    seen.add(node);
    if (node.boundary === true) return undefined;
    if (node.usage) return node.usage.after;
  }
  return undefined;
}

/** Reports a link line (no entry): with its own reason, or its type's. */
export function reportLink(line: TreeLine<unknown>, drops: DropLog): void {
  if (line.dropped) drops.drop(line.dropped.what, line.dropped.why, line.line);
  else dropBookkeeping(line.type, line.line, drops);
}

/** Reports a bookkeeping line: the kind and why it is not sent. */
export function dropBookkeeping(type: string, line: number, drops: DropLog): void {
  drops.drop(`${type} lines`, bookkeepingReasons[type] ?? 'a line type that is not part of the conversation', line);
}

interface PathEnd {
  sidechainFile: boolean;
  top: TreeLine<unknown> | undefined;
  missingParent: string | undefined;
}

/** Reports a line off the path; true when it is conversation cut off by the broken chain. */
function reportOffPath(line: TreeLine<unknown>, end: PathEnd, drops: DropLog): boolean {
  if (!line.entry) {
    reportLink(line, drops);
    return false;
  }
  if (line.isSidechain === true && !end.sidechainFile) {
    drops.drop('sub-agent lines (isSidechain)', "another conversation with its own context; the main one keeps the sub-agent's answer as a tool result", line.line);
    return false;
  }
  if (end.missingParent !== undefined && end.top && line.line < end.top.line && line.content !== undefined) {
    drops.dropContent(
      'conversation lines cut off by a broken parent chain',
      `line ${end.top.line} names parent ${end.missingParent}, which is not in the file, so the path from the last line stops there`,
      line.line,
    );
    return true;
  }
  drops.drop('lines on a branch the session left', 'not on the path to the last line (a rewind or a retried request)', line.line);
  return false;
}

/**
 * Lines by uuid, the first of each kept. A later line with the same uuid is
 * reported, never silently put in the first one's place: as a repeat when its
 * content is the same, as lost content when it differs.
 */
function uniqueLines<T>(lines: readonly TreeLine<T>[], drops: DropLog): Map<string, TreeLine<T>> {
  const byId = new Map<string, TreeLine<T>>();
  for (const line of lines) {
    const first = byId.get(line.uuid);
    if (!first) {
      byId.set(line.uuid, line);
    } else if (first.content === line.content && first.type === line.type) {
      drops.drop('lines repeating an earlier line (same uuid and content)', `a copy of line ${first.line}; the first is kept`, line.line);
    } else if (line.content === undefined) {
      drops.drop(`${line.type} lines reusing an earlier uuid`, `line ${first.line} has the uuid; it is kept and this line is not`, line.line);
    } else {
      drops.dropContent('conversation lines reusing an earlier uuid with other content', `line ${first.line} has the uuid; it is kept and this line is not`, line.line);
    }
  }
  return byId;
}
