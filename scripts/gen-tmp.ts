import { writeFileSync } from 'node:fs';
import { toolWorldItems, LOOKUP_TOOL } from '../src/core/demo-tool-world';
const items = toolWorldItems(90).map(({ split: _s, ...rest }) => rest);
writeFileSync('/work/wt/agentic/public/examples/parts-desk.json', JSON.stringify({ tools: [LOOKUP_TOOL], items }, null, 1) + '\n');
