# unit tests: api_engine
