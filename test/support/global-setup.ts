// Placeholder-free global setup: prepared by the database test support (see db-template.ts).
export default async function setup() {}
