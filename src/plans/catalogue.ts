// Plans and their limits. These rows are seeded into the Plan table at start-up
// (existing rows are left as an operator edited them); a custom plan is a row of
// its own, created with `npm run cli -- plans set ...`.
export interface PlanLimits {
  id: string;
  name: string;
  allowsPublishing: boolean;
  /** null: no limit. */
  maxCustomers: number | null;
  maxProjects: number | null;
  autoTranslation: boolean;
}

export const BUILT_IN_PLANS: PlanLimits[] = [
  { id: 'free', name: 'Free', allowsPublishing: false, maxCustomers: 0, maxProjects: 3, autoTranslation: true },
  {
    id: 'business',
    name: 'Business',
    allowsPublishing: true,
    maxCustomers: 25,
    maxProjects: null,
    autoTranslation: true,
  },
  {
    id: 'custom',
    name: 'Custom',
    allowsPublishing: true,
    maxCustomers: null,
    maxProjects: null,
    autoTranslation: true,
  },
];
