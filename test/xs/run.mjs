// Placeholder until the XS runner lands (issue 7): says so and fails nothing.
console.log('test:xs: the XS runner is not built yet');
