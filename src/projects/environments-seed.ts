// The two environments every project has (contract: Hosting environment).
// The editor is the origin; _latest publishes from it, _production from _latest.
export const BUILT_IN_ENVIRONMENTS = [
  { key: '_latest', name: 'Latest', color: '#2563eb', position: 1 },
  { key: '_production', name: 'Production', color: '#16a34a', position: 2 },
];
