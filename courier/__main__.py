from courier.tools.cli import main

raise SystemExit(main())
