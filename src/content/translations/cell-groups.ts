// One-cell writes of base cells (update-one.ts, one-element v1 writes) that
// arrive while another of the same project is being written go together, as
// one statement of the write gate (groupGateSql; the grouping is
// src/db/statement-groups.ts): each write still opens its own change, gets its
// own events, its findings-queue entry and its own answer, but the group pays
// one statement's fixed cost. Sixteen one-cell PATCHes cost PostgreSQL
// 1.2–1.6 ms of CPU each against 0.25–0.34 ms a cell for sixteen cells in one
// statement (docs/benchmarks.md, "Grouped one-cell writes").
//
// A lane is a project, whether the writes set a review status, their replace
// mode and whether they set their key's last-seen (one rule of each for all
// the statement's rows). A statement's upsert touches a row once: a second
// write of a cell waits for the next group. Cells are written in key order,
// so groups running side by side (one held by a lock, the next one going on)
// lock their rows and the findings queue's in one order.
import type { Prisma } from '../../generated/prisma/client.js';
import { readRows } from '../../db/read-rows.js';
import { statementGroups } from '../../db/statement-groups.js';
import { groupGateSql, type GroupedWrite, type Row } from './gate.js';

export interface OneCellWrite extends GroupedWrite {
  projectId: number;
  /** The write's own statement (planGate's `single`): what runs when it goes alone. */
  single: Prisma.Sql;
}

/** Writes per statement at most: a group stays short, and every editor of a busy project fits. */
export const MAX_GROUP = 32;

const writes = statementGroups<OneCellWrite, Row>({
  lane: (w) => `${w.projectId}:${w.cell.reviewStatus !== undefined}:${w.replace}:${w.touch}`,
  slot: (w) => `${w.cell.keyId}:${w.cell.languageId}`,
  max: MAX_GROUP,
  alone: async (w) => (await readRows<Row>(w.single))[0]!,
  async together(group) {
    const order = group.map((w, i) => i).sort((a, b) => compare(group[a]!, group[b]!));
    const rows = await readRows<Row>(
      groupGateSql(
        group[0]!.projectId,
        order.map((i) => group[i]!),
      ),
    );
    const answers: Row[] = [];
    order.forEach((i, at) => (answers[i] = rows[at]!));
    return answers;
  },
});

const compare = (a: OneCellWrite, b: OneCellWrite) =>
  a.cell.keyId - b.cell.keyId || a.cell.languageId - b.cell.languageId;

/** Writes one base cell, alone or in one statement with the writes of its lane that wait meanwhile. */
export const writeOneCell = writes.run;

/** Statements sent and the writes they carried, since the process started (tests, benchmarks). */
export const cellGroupStats = writes.stats;
