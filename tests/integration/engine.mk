# integration tests: engine
