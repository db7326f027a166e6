// Imports every domain's GraphQL types and builds the schema.
import { builder } from '../builder.js';
import './scalars.js';
import './project.js';
import './job.js';
import './transfer.js';
import './hosting.js';
import './translation.js';
import './translation-key.js';
import './team.js';
import './activity.js';
import './webhook.js';
import './signup.js';
import './account.js';
import './console.js';
import './memory.js';
import './screenshot.js';
import './llm.js';
import './glossary.js';
import './automation.js';
import './gitsync.js';
import './in-context.js';
import './quality.js';

export const schema = builder.toSchema({ sortSchema: false });
