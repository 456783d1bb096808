/** The console's entry: the whole page is the App. */
import { render } from 'preact';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
