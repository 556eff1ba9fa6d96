import { DEMO_BASE_URL, DEMO_MODELS } from '../../core/simulators/demo-world';

/** Provider presets (DESIGN §4): base URL, default models, extra headers, and what CORS needs. */
export interface ProviderPreset {
  id: string;
  name: string;
  baseURL: string;
  targetModel: string;
  optimizerModel: string;
  headers?: Record<string, string>;
  /** What the user must know to call it from a browser page. */
  cors: string;
}

export const PRESETS: ProviderPreset[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    baseURL: 'https://api.openai.com/v1',
    targetModel: 'gpt-4o-mini',
    optimizerModel: 'gpt-4o',
    cors: 'Accepts requests from browser pages.',
  },
  {
    id: 'azure',
    name: 'Azure OpenAI',
    baseURL: 'https://YOUR-RESOURCE.openai.azure.com/openai/v1',
    targetModel: 'your-deployment',
    optimizerModel: 'your-deployment',
    cors: 'Use your resource name and deployment names. If Test connection reports CORS, the resource does not accept browser requests: put it behind Azure API Management with a CORS policy that allows this page.',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    targetModel: 'openai/gpt-4o-mini',
    optimizerModel: 'openai/gpt-4o',
    cors: 'Accepts requests from browser pages.',
  },
  {
    id: 'groq',
    name: 'Groq',
    baseURL: 'https://api.groq.com/openai/v1',
    targetModel: 'llama-3.1-8b-instant',
    optimizerModel: 'llama-3.3-70b-versatile',
    cors: 'Accepts requests from browser pages.',
  },
  {
    id: 'together',
    name: 'Together',
    baseURL: 'https://api.together.xyz/v1',
    targetModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    optimizerModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    cors: 'If Test connection reports CORS, call it through a proxy you control that adds CORS headers.',
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    targetModel: 'deepseek-chat',
    optimizerModel: 'deepseek-chat',
    cors: 'If Test connection reports CORS, call it through a proxy you control that adds CORS headers.',
  },
  {
    id: 'mistral',
    name: 'Mistral',
    baseURL: 'https://api.mistral.ai/v1',
    targetModel: 'mistral-small-latest',
    optimizerModel: 'mistral-large-latest',
    cors: 'If Test connection reports CORS, call it through a proxy you control that adds CORS headers.',
  },
  {
    id: 'gemini',
    name: 'Gemini (OpenAI compatibility)',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    targetModel: 'gemini-2.0-flash',
    optimizerModel: 'gemini-2.5-pro',
    cors: 'Accepts requests from browser pages with an API key from Google AI Studio.',
  },
  {
    id: 'anthropic',
    name: 'Anthropic (OpenAI compatibility)',
    baseURL: 'https://api.anthropic.com/v1',
    targetModel: 'claude-3-5-haiku-latest',
    optimizerModel: 'claude-sonnet-4-0',
    headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
    cors: 'Browser calls need the header anthropic-dangerous-direct-browser-access: true, which this preset sends.',
  },
  {
    id: 'ollama',
    name: 'Ollama (local)',
    baseURL: 'http://localhost:11434/v1',
    targetModel: 'llama3.2',
    optimizerModel: 'llama3.1:70b',
    cors: 'Start Ollama with OLLAMA_ORIGINS set to this page’s origin (or *), e.g. OLLAMA_ORIGINS="*" ollama serve. Any key works.',
  },
  {
    id: 'lmstudio',
    name: 'LM Studio (local)',
    baseURL: 'http://localhost:1234/v1',
    targetModel: 'local-model',
    optimizerModel: 'local-model',
    cors: 'Turn on “Enable CORS” in LM Studio’s server settings. Any key works.',
  },
  {
    id: 'llamacpp',
    name: 'llama.cpp server (local)',
    baseURL: 'http://127.0.0.1:8080/v1',
    targetModel: 'local-model',
    optimizerModel: 'local-model',
    cors: 'llama-server answers any origin by default (--cors-origins narrows it). Give it a context that holds the skill and the task, e.g. llama-server -m model.gguf -c 16384. Any key works unless it was started with --api-key.',
  },
  {
    id: 'vllm',
    name: 'vLLM (local)',
    baseURL: 'http://localhost:8000/v1',
    targetModel: 'your-model',
    optimizerModel: 'your-model',
    cors: 'Start the server with --allowed-origins \'["*"]\' (or this page’s origin).',
  },
  {
    id: 'demo',
    name: 'Simulated demo (no key)',
    baseURL: DEMO_BASE_URL,
    targetModel: DEMO_MODELS.target,
    optimizerModel: DEMO_MODELS.optimizer,
    cors: 'A simulated model inside this page: no key, no network, no cost — and not a real LLM.',
  },
  {
    id: 'custom',
    name: 'Custom',
    baseURL: '',
    targetModel: '',
    optimizerModel: '',
    cors: 'Any OpenAI-compatible endpoint. From a browser page it must answer CORS preflight requests and allow the Authorization and Content-Type headers.',
  },
];

export function presetById(id: string): ProviderPreset {
  return PRESETS.find((p) => p.id === id) ?? PRESETS[PRESETS.length - 1];
}
