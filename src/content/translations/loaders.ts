// Batches the reads of keys' translations in one GraphQL request: however
// many keys a query selects, their cells are read with one statement per
// project and customer.
import DataLoader from 'dataloader';
import { customerIdOf } from '../customers.js';
import { cellsOfKeys, type TranslationCell } from './cells.js';

export interface KeyCellsRequest {
  projectId: number;
  keyId: number;
  /** Customer key: cells seen through that customer. */
  customerKey: string | null;
}

const groupOf = (r: KeyCellsRequest) => `${r.projectId}:${r.customerKey ?? ''}`;

async function loadGroup(requests: KeyCellsRequest[]): Promise<Map<number, TranslationCell[]> | Error> {
  const { projectId, customerKey } = requests[0]!;
  try {
    const customer = customerKey ? { id: await customerIdOf(projectId, customerKey), key: customerKey } : null;
    const byKey = new Map<number, TranslationCell[]>(requests.map((r) => [r.keyId, []]));
    for (const cell of await cellsOfKeys(projectId, [...byKey.keys()], customer)) byKey.get(cell.keyId)!.push(cell);
    return byKey;
  } catch (error) {
    return error as Error;
  }
}

export function createKeyCellsLoader(): DataLoader<KeyCellsRequest, TranslationCell[], string> {
  return new DataLoader(
    async (requests) => {
      const groups = new Map<string, KeyCellsRequest[]>();
      for (const r of requests) {
        const list = groups.get(groupOf(r));
        if (list) list.push(r);
        else groups.set(groupOf(r), [r]);
      }
      const loaded = new Map(
        await Promise.all([...groups].map(async ([id, list]) => [id, await loadGroup(list)] as const)),
      );
      return requests.map((r) => {
        const cells = loaded.get(groupOf(r))!;
        return cells instanceof Error ? cells : cells.get(r.keyId)!;
      });
    },
    { cacheKeyFn: (r) => `${groupOf(r)}:${r.keyId}` },
  );
}
