from courier.cli import main

raise SystemExit(main())
