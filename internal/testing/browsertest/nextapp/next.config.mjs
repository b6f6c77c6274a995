// Next.js's configuration for the test's App Router app. Its dependencies (next, react) are
// links into the npm cache, outside the app: Turbopack's root is where both are (the test says).
export default {
  turbopack: { root: process.env.NEXT_APP_ROOT },
  outputFileTracingRoot: process.env.NEXT_APP_ROOT,
};
