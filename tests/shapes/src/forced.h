#define FORCED 42
