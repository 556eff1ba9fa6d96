// The worker's composition root: real dependencies in, the API out through Comlink.
import * as Comlink from 'comlink';
import { createApi } from './create-api';
import { openSkillwrightDb } from '../storage/open-db';
import { PROMPT_FILES } from './prompt-files';

Comlink.expose(createApi({ db: openSkillwrightDb(), promptFiles: PROMPT_FILES }));
