import type { CheckProvider } from './doctor/input.js';

// Placeholder until the inventory lint lands (issue 2, item 6).
export const provideChecks: CheckProvider = () => [];
