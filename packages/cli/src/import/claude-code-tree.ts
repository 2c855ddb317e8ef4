/**
 * The conversation path of a Claude Code session. Every line with a `uuid` is a node
 * of one tree by `parentUuid` (a compaction boundary links on through
 * `logicalParentUuid`), and that includes bookkeeping lines: CLI 2.x writes hook
 * and tool `progress` lines into the chain, so a walk over conversation lines only
 * stops at the first of them and silently loses everything before it. The walk goes
 * over all lines and keeps the conversation lines on the path.
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
}

/** Why bookkeeping lines (with or without a uuid) are not sent to the model. */
export const bookkeepingReasons: Readonly<Record<string, string>> = {
  summary: 'the session title shown in the picker, never sent to the model',
  'file-history-snapshot': 'file backups for undo, never sent to the model',
  'queue-operation': 'the input queue of the terminal, never sent to the model',
  progress: 'hook and tool progress shown in the terminal, never sent to the model',
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
  const leaf = conversation.findLast((line) => (line.isSidechain === true) === sidechainFile);
  const onPath = new Set<TreeLine<T>>();
  let top: TreeLine<T> | undefined;
  let missingParent: string | undefined;
  for (let node = leaf; node && !onPath.has(node);) {
    onPath.add(node);
    top = node;
    const parent = node.parentUuid ?? node.logicalParentUuid ?? undefined;
    node = parent === undefined ? undefined : byId.get(parent);
    if (parent !== undefined && !node) missingParent = parent;
  }
  let cutOff = 0;
  for (const line of lines) {
    if (onPath.has(line) || !byId.has(line.uuid) || byId.get(line.uuid) !== line) continue;
    if (reportOffPath(line, { sidechainFile, top, missingParent }, drops)) cutOff += 1;
  }
  if (missingParent !== undefined && top && cutOff === 0) {
    // Nothing of the file lies before the break: the session began before this file
    // (a resumed session's new file, or a slice of one), and its history is elsewhere.
    drops.dropContent(
      'history from before the file',
      `line ${top.line}, the first on the conversation path, names parent ${missingParent}, which is not in the file: the session began before this file`,
      top.line,
    );
  }
  for (const line of onPath) if (!line.entry) dropBookkeeping(line.type, line.line, drops);
  return [...onPath].reverse().flatMap((line) => (line.entry === undefined ? [] : [line.entry]));
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
    dropBookkeeping(line.type, line.line, drops);
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
