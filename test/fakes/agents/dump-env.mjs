// Prints the environment it was given, as JSON.
process.stdout.write(JSON.stringify(process.env));
