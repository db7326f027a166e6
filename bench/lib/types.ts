export interface Figure {
  scenario: string;
  db: 'pglite' | 'postgres';
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
}
