# unit tests: api_model
