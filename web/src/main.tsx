import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { Controller } from './controller.js';
import { store } from './store/store.js';
import './styles.css';

const controller = new Controller(store);
controller.route();
createRoot(document.getElementById('root')!).render(<App />);
