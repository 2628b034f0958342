/** The page: its modules, loaded by the entry (main.tsx) once a link's engine worker has started. */
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { Controller } from './controller.js';
import { notesWindow } from './engine/spawn.js';
import { store } from './store/store.js';
import './styles.css';

/* the page's modules are evaluated (a link's worker may have started before: engine/spawn.ts; its own marks follow,
   engine/client.ts) */
performance.mark('mmplay:boot');
const q = new URLSearchParams(location.search);
const root = createRoot(document.getElementById('root')!);
/* the speaker's notes window of a tour: no model, no controller */
if (notesWindow(q))
  void import('./components/Notes.js').then(({ NotesWindow }) =>
    root.render(<NotesWindow name={q.get('tour')!} theme={q.get('theme') === 'dark' ? 'dark' : 'light'} />),
  );
else {
  const controller = new Controller(store);
  controller.route();
  root.render(<App />);
}
