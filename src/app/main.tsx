import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { loadRuntimeConfig } from './runtime-config.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

void loadRuntimeConfig().then((config) => {
  createRoot(root).render(
    <StrictMode>
      <App config={config} />
    </StrictMode>,
  );
});
