import { render } from 'preact';
import { App } from './app';
import './styles.css';

// A sign-in link (`/console#key=…`, printed by `npm start`) hands over its key once; the fragment never reaches a server.
const handed = new URLSearchParams(location.hash.slice(1)).get('key');
if (handed) {
  sessionStorage.setItem('earshot.console.key', handed);
  history.replaceState(null, '', location.pathname + location.search);
}

const root = document.getElementById('app');
if (root) render(<App />, root);
