"""Real servers on 127.0.0.1 for the tests: started as subprocesses by session fixtures."""
