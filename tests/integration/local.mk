# Integration tests: real HTTP over loopback against steno-sandbox.
