import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { Controller } from './controller.js';
import { store } from './store/store.js';
import './styles.css';

/* the page's modules are evaluated: the first of the boot's marks (the worker's follow, engine/client.ts) */
performance.mark('mmplay:boot');
const q = new URLSearchParams(location.search);
const root = createRoot(document.getElementById('root')!);
/* the speaker's notes window of a tour: no model, no controller */
if (q.get('notes') === '1' && q.get('tour'))
  void import('./components/Notes.js').then(({ NotesWindow }) =>
    root.render(<NotesWindow name={q.get('tour')!} theme={q.get('theme') === 'dark' ? 'dark' : 'light'} />),
  );
else {
  const controller = new Controller(store);
  controller.route();
  root.render(<App />);
}
