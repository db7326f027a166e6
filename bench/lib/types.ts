export interface Figure {
  scenario: string;
  /** `none`: work without a database (an in-process algorithm). */
  db: 'pglite' | 'postgres' | 'none';
  metric: string;
  value: number;
  unit: string;
  /** The same work done without the service, measured in the same run. */
  baseline?: number;
  /** How the figure compares with its baseline, in the direction the target states. */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
  /** Stamped when saved: the commit measured (`+dirty` with uncommitted changes), the machine, the date. */
  commit?: string;
  machine?: string;
  at?: string;
}

/** bench/results.json: the figures of the latest runs; the table of docs/benchmarks.md is generated from it. */
export interface Results {
  figures: Figure[];
}
